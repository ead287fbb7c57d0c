/**
 * Remembers for a few seconds whether a credential is still active, so revocation takes effect within `ttlMs`
 * on every instance without a database read on every request.
 */
export class CredentialStatusCache {
  private readonly entries = new Map<number, { active: boolean; until: number }>();

  constructor(
    private readonly lookup: (credentialId: number) => Promise<boolean>,
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async isActive(credentialId: number): Promise<boolean> {
    const cached = this.entries.get(credentialId);
    if (cached && cached.until > this.now()) return cached.active;
    const active = await this.lookup(credentialId);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(credentialId, { active, until: this.now() + this.ttlMs });
    return active;
  }
}
