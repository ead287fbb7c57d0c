import { DomainError, NotFoundError, ValidationError } from '../../shared/domain-error';
import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { SecretGenerator, SecretHasher } from '../security-ports';
import { ALL_SCOPES, scopesProblem } from '../scopes';

export interface CreateCredentialInput {
  readonly customerId: number;
  /** Defaults to every scope; given, at least one. */
  readonly scopes?: readonly string[];
}

/** Issues a further credential to an existing customer; the secret is returned once. */
export class CreateCredential {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'customers' | 'credentials'>>,
    private readonly clock: Clock,
    private readonly hasher: SecretHasher,
    private readonly generator: SecretGenerator,
  ) {}

  async execute(input: CreateCredentialInput): Promise<{ clientId: string; clientSecret: string; scopes: readonly string[] }> {
    const scopes = input.scopes ?? ALL_SCOPES;
    const problem = scopesProblem(scopes);
    if (problem) throw ValidationError.of('scopes', problem);
    const clientId = this.generator.clientId();
    const clientSecret = this.generator.clientSecret();
    const secretHash = await this.hasher.hash(clientSecret);
    await this.uow.run(async (tx) => {
      if (!(await tx.customers.get(input.customerId))) throw new NotFoundError('customer', input.customerId);
      await tx.credentials.insertIfAbsent({
        customerId: input.customerId,
        clientId,
        secretHash,
        scopes,
        status: 'ACTIVE',
        creationDate: this.clock.now(),
      });
    });
    return { clientId, clientSecret, scopes };
  }
}

/** `npm run admin -- credentials revoke`: an ACTIVE credential becomes REVOKED; revoking it again is refused. */
export class RevokeCredential {
  constructor(private readonly uow: UnitOfWork<Pick<TransactionScope, 'credentials'>>) {}

  async execute(input: { clientId: string }): Promise<void> {
    await this.uow.run(async (tx) => {
      const credential = await tx.credentials.getForUpdate(input.clientId);
      if (!credential) throw new DomainError('resource-not-found', `no credential with clientId ${input.clientId}`);
      await tx.credentials.update(credential.revoke());
    });
  }
}
