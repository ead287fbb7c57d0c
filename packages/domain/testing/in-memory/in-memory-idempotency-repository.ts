import type { HeldKey, IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecord, IdempotencyRepository, StoredResponse } from '../../src';
import type { TablesRef } from './in-memory-tables';

const keyOf = (credentialId: number, key: string): string => `${credentialId}|${key}`;

/** Transactions run one at a time here, so a claim never meets another one in flight. */
export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly ref: TablesRef) {}

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const existing = this.ref.tables.idempotency.get(keyOf(request.credentialId, request.key));
    if (existing && existing.expiresAt > request.now) {
      if (existing.fingerprint !== request.fingerprint) return { kind: 'mismatch' };
      // Only a held claim is seen without its answer: transactions here never overlap.
      return existing.response ? { kind: 'replay', response: existing.response, expiresAt: existing.expiresAt } : { kind: 'in-progress' };
    }
    this.ref.tables.idempotency.set(keyOf(request.credentialId, request.key), {
      fingerprint: request.fingerprint,
      expiresAt: request.expiresAt,
      response: null,
    });
    return { kind: 'acquired' };
  }

  async find(credentialId: number, key: string, now: Date): Promise<IdempotencyRecord | undefined> {
    const existing = this.ref.tables.idempotency.get(keyOf(credentialId, key));
    if (!existing?.response || existing.expiresAt <= now) return undefined;
    return { fingerprint: existing.fingerprint, response: existing.response, expiresAt: existing.expiresAt };
  }

  async complete(credentialId: number, key: string, response: StoredResponse): Promise<void> {
    const id = keyOf(credentialId, key);
    const existing = this.ref.tables.idempotency.get(id);
    if (!existing) throw new Error(`idempotency key ${key} was never claimed`);
    this.ref.tables.idempotency.set(id, { ...existing, response });
  }

  async completeHeld(hold: HeldKey, response: StoredResponse, expiresAt: Date): Promise<boolean> {
    const id = keyOf(hold.credentialId, hold.key);
    const existing = this.held(hold);
    if (!existing) return false;
    this.ref.tables.idempotency.set(id, { ...existing, response, expiresAt });
    return true;
  }

  async extendHeld(hold: HeldKey, until: Date): Promise<boolean> {
    const existing = this.held(hold);
    if (existing) this.ref.tables.idempotency.set(keyOf(hold.credentialId, hold.key), { ...existing, expiresAt: until });
    return existing !== undefined;
  }

  async releaseHeld(hold: HeldKey): Promise<void> {
    if (this.held(hold)) this.ref.tables.idempotency.delete(keyOf(hold.credentialId, hold.key));
  }

  /** The key's record while `hold` still holds it: no answer yet, and the hold's own expiry. */
  private held(hold: HeldKey) {
    const existing = this.ref.tables.idempotency.get(keyOf(hold.credentialId, hold.key));
    return existing && existing.response === null && existing.expiresAt.getTime() === hold.heldUntil.getTime() ? existing : undefined;
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const expired = [...this.ref.tables.idempotency].filter(([, record]) => record.expiresAt <= now).slice(0, limit);
    for (const [id] of expired) this.ref.tables.idempotency.delete(id);
    return expired.length;
  }
}
