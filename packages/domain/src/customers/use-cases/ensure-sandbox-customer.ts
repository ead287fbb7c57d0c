import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { openCurrentAccounts } from '../../current-accounts/open-current-accounts';
import { DEFAULT_CUSTOMER_SETTINGS, type Customer } from '../customer';
import type { SecretHasher } from '../security-ports';
import { ALL_SCOPES } from '../scopes';

export interface SandboxCustomerInput {
  readonly name: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * Sandbox bootstrap, idempotent: a restart or two instances starting together leave one customer, two current
 * accounts and one credential; a changed secret replaces the stored hash.
 */
export class EnsureSandboxCustomer {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'customers' | 'credentials' | 'currentAccounts'>>,
    private readonly clock: Clock,
    private readonly hasher: SecretHasher,
  ) {}

  async execute(input: SandboxCustomerInput): Promise<Customer> {
    const secretHash = await this.hasher.hash(input.clientSecret);
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const { customer, created } = await tx.customers.insertIfAbsent({
        ...DEFAULT_CUSTOMER_SETTINGS,
        name: input.name,
        creationDate: now,
      });
      if (created) await openCurrentAccounts(tx, customer.id, this.clock);
      const { credential, created: credentialCreated } = await tx.credentials.insertIfAbsent({
        customerId: customer.id,
        clientId: input.clientId,
        secretHash,
        scopes: ALL_SCOPES,
        status: 'ACTIVE',
        creationDate: now,
      });
      if (!credentialCreated && !(await this.hasher.verify(input.clientSecret, credential.secretHash))) {
        await tx.credentials.replaceSecretHash(credential.id, secretHash);
      }
      return customer;
    });
  }
}
