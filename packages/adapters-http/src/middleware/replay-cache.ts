import type { StoredResponse } from '@rcs/domain';

interface Entry {
  readonly fingerprint: string;
  /** Fingerprint of the bytes of the request that left this answer, as sent (rawFingerprintOf), if known. */
  readonly sentAs: string | undefined;
  readonly response: StoredResponse;
  readonly expiresAt: number;
  readonly bytes: number;
}

/** Rough size of an entry: its body's text plus a fixed allowance for the key, headers and object overhead. */
const sizeOf = (key: string, response: StoredResponse) => key.length + 256 + (response.body?.length ?? 0);

/**
 * Completed idempotent responses this process has seen, so a replay costs no database round trip. Safe across
 * instances because a completed record never changes before it expires: an entry is what the database holds,
 * until `expiresAt`, and is dropped then. Least recently used entries go first once the byte budget is spent.
 */
export class ReplayCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 16 * 1024 * 1024) {}

  get(credentialId: number, key: string, now: Date): Entry | undefined {
    const id = `${credentialId}|${key}`;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.drop(id, entry);
    if (entry.expiresAt <= now.getTime()) return undefined;
    this.entries.set(id, entry);
    this.bytes += entry.bytes;
    return entry;
  }

  remember(credentialId: number, key: string, fingerprint: string, sentAs: string | undefined, response: StoredResponse, expiresAt: Date): void {
    const id = `${credentialId}|${key}`;
    const existing = this.entries.get(id);
    if (existing) this.drop(id, existing);
    const bytes = sizeOf(id, response);
    if (bytes > this.budgetBytes / 16) return;
    this.entries.set(id, { fingerprint, sentAs, response, expiresAt: expiresAt.getTime(), bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.drop(oldest, entry);
    }
  }

  private drop(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}
