import type { IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecord, IdempotencyRepository, StoredResponse } from '../../src';
import type { TablesRef } from './in-memory-tables';

const keyOf = (credentialId: number, key: string): string => `${credentialId}|${key}`;

/** Transactions run one at a time here, so a claim never meets another one in flight. */
export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly ref: TablesRef) {}

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const existing = await this.find(request.credentialId, request.key, request.now);
    if (existing) {
      return existing.fingerprint === request.fingerprint
        ? { kind: 'replay', response: existing.response, expiresAt: existing.expiresAt }
        : { kind: 'mismatch' };
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

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const expired = [...this.ref.tables.idempotency].filter(([, record]) => record.expiresAt <= now).slice(0, limit);
    for (const [id] of expired) this.ref.tables.idempotency.delete(id);
    return expired.length;
  }
}
