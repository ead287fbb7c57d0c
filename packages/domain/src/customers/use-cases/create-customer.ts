import { DomainError, ValidationError } from '../../shared/domain-error';
import type { Clock } from '../../shared/clock';
import { trimmedName } from '../../shared/names';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { openCurrentAccounts } from '../../current-accounts/open-current-accounts';
import { DEFAULT_CUSTOMER_SETTINGS, ownerTypesOf, type Customer } from '../customer';
import type { SecretGenerator, SecretHasher } from '../security-ports';
import { ALL_SCOPES } from '../scopes';

export interface CreateCustomerInput {
  readonly name: string;
  readonly approvalControl?: boolean;
  /** The receivable account owner types its operating model allows; every one when left out. */
  readonly enabledOwnerTypes?: readonly string[] | null;
}

export interface CreatedCustomer {
  readonly customer: Customer;
  readonly clientId: string;
  /** Shown once; only its hash is stored. */
  readonly clientSecret: string;
}

/** Creates a customer with its MAIN and SUB current accounts and a first credential holding every scope. */
export class CreateCustomer {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'customers' | 'credentials' | 'currentAccounts'>>,
    private readonly clock: Clock,
    private readonly hasher: SecretHasher,
    private readonly generator: SecretGenerator,
  ) {}

  async execute(input: CreateCustomerInput): Promise<CreatedCustomer> {
    // An embedder's null as well as a name left out.
    if (typeof input.name !== 'string') throw ValidationError.of('name', 'is required');
    const name = trimmedName(input.name, 'name');
    const enabledOwnerTypes = ownerTypesOf(input.enabledOwnerTypes);
    const clientId = this.generator.clientId();
    const clientSecret = this.generator.clientSecret();
    const secretHash = await this.hasher.hash(clientSecret);
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const { customer, created } = await tx.customers.insertIfAbsent({
        ...DEFAULT_CUSTOMER_SETTINGS,
        name,
        approvalControl: input.approvalControl ?? false,
        enabledOwnerTypes,
        creationDate: now,
      });
      if (!created) throw new DomainError('validation', `a customer named "${name}" already exists`);
      await openCurrentAccounts(tx, customer.id, this.clock);
      await tx.credentials.insertIfAbsent({
        customerId: customer.id,
        clientId,
        secretHash,
        scopes: ALL_SCOPES,
        status: 'ACTIVE',
        creationDate: now,
      });
      return { customer, clientId, clientSecret };
    });
  }
}
