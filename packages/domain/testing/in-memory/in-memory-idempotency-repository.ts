import type { IdempotencyClaim, IdempotencyClaimRequest, IdempotencyQueries, IdempotencyRepository, StoredResponse } from '../../src';
import type { TablesRef, TablesSource } from './in-memory-tables';

const keyOf = (credentialId: number, key: string): string => `${credentialId}|${key}`;

/** Transactions run one at a time here, so a claim never meets another one in flight. */
export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly ref: TablesRef) {}

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    const id = keyOf(request.credentialId, request.key);
    const existing = this.ref.tables.idempotency.get(id);
    if (existing && existing.expiresAt > request.now && existing.response) {
      return existing.fingerprint === request.fingerprint
        ? { kind: 'replay', response: existing.response }
        : { kind: 'mismatch' };
    }
    this.ref.tables.idempotency.set(id, { fingerprint: request.fingerprint, expiresAt: request.expiresAt, response: null });
    return { kind: 'acquired' };
  }

  async complete(credentialId: number, key: string, response: StoredResponse): Promise<void> {
    const id = keyOf(credentialId, key);
    const existing = this.ref.tables.idempotency.get(id);
    if (!existing) throw new Error(`idempotency key ${key} was never claimed`);
    this.ref.tables.idempotency.set(id, { ...existing, response });
  }
}

export class InMemoryIdempotencyQueries implements IdempotencyQueries {
  constructor(private readonly source: TablesSource) {}

  async findCompleted(credentialId: number, key: string, now: Date) {
    const record = this.source.visibleTables().idempotency.get(keyOf(credentialId, key));
    return record && record.response && record.expiresAt > now ? { fingerprint: record.fingerprint, response: record.response } : undefined;
  }
}
