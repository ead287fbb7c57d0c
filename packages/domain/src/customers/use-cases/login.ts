import { DomainError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { SecretHasher, TokenIssuer } from '../security-ports';

export interface LoginResult {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  readonly expiresIn: number;
  readonly scope: string;
}

/** Exchanges client credentials for a bearer token. Unknown id, wrong secret and revoked look the same. */
export class Login {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'credentials'>>,
    private readonly hasher: SecretHasher,
    private readonly tokens: TokenIssuer,
  ) {}

  async execute(input: { clientId: string; clientSecret: string }): Promise<LoginResult> {
    const credential = await this.uow.run((tx) => tx.credentials.findByClientId(input.clientId));
    // An unknown clientId still pays for one hash, so response time does not reveal which ids exist.
    const matches = credential ? await this.hasher.verify(input.clientSecret, credential.secretHash) : (await this.hasher.hash(input.clientSecret), false);
    if (!credential || !matches || credential.status !== 'ACTIVE') {
      throw new DomainError('invalid-credentials', 'clientId or clientSecret is wrong');
    }
    const issued = this.tokens.issue({
      sub: credential.clientId,
      credentialId: credential.id,
      customerId: credential.customerId,
      scopes: credential.scopes,
    });
    return { ...issued, tokenType: 'Bearer', scope: credential.scopes.join(' ') };
  }
}
