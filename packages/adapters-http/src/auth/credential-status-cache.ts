import type { CredentialSnapshot } from '@rcs/domain';

/** What authentication checks of a token's credential. */
export type TokenCredential = Pick<CredentialSnapshot, 'customerId' | 'clientId' | 'status' | 'scopes'>;

/**
 * Remembers a credential's owner, status and scopes for a few seconds, so revocation takes effect within `ttlMs` on
 * every instance without a database read on every request.
 */
export class CredentialStatusCache {
  private readonly entries = new Map<number, { credential: TokenCredential | undefined; until: number }>();

  constructor(
    private readonly lookup: (credentialId: number) => Promise<TokenCredential | undefined>,
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The credential, or undefined when none has that id. */
  async get(credentialId: number): Promise<TokenCredential | undefined> {
    const cached = this.entries.get(credentialId);
    if (cached && cached.until > this.now()) return cached.credential;
    const credential = await this.lookup(credentialId);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(credentialId, { credential, until: this.now() + this.ttlMs });
    return credential;
  }
}
