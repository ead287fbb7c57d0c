import type { Knex } from 'knex';
import {
  IdempotencyRequestInProgressError,
  type HeldKey,
  type IdempotencyClaim,
  type IdempotencyClaimRequest,
  type IdempotencyRecord,
  type IdempotencyRepository,
  type StoredResponse,
} from '@rcs/domain';
import { PG_LOCK_NOT_AVAILABLE, pgCode } from './pg-errors';
import { prepared } from './prepared';
import type { TransactionWrites } from './transaction-writes';

interface IdempotencyRow {
  fingerprint: string;
  response_status: number | null;
  /** The stored JSON's text (json, unlike jsonb, keeps it as written), not the value it parses to. */
  response_body: string | null;
  response_location: string | null;
  expires_at: Date;
}

const storedResponse = (row: IdempotencyRow): StoredResponse => ({
  status: row.response_status!,
  body: row.response_body,
  ...(row.response_location === null ? {} : { location: row.response_location }),
});

export class KnexIdempotencyRepository implements IdempotencyRepository {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly writes: TransactionWrites,
  ) {}

  async claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim> {
    try {
      // A first use inserts; an expired record is taken over as new. A record held by a transaction still in
      // flight makes this statement wait for it (up to lock_timeout), so two requests never both execute.
      const { rows } = await prepared(
        this.trx,
        'idempotency_keys.claim',
        `INSERT INTO idempotency_keys (credential_id, key, fingerprint, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (credential_id, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
               response_status = NULL, response_body = NULL, response_location = NULL
           WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
         RETURNING 1`,
        [request.credentialId, request.key, request.fingerprint, request.now, request.expiresAt],
      );
      if (rows.length === 1) return { kind: 'acquired' };
    } catch (error) {
      if (pgCode(error) === PG_LOCK_NOT_AVAILABLE) {
        throw new IdempotencyRequestInProgressError();
      }
      throw error;
    }
    const row = await this.record(request.credentialId, request.key).first();
    if (!row) throw new Error('idempotency record vanished while claiming it');
    if (row.fingerprint !== request.fingerprint) return { kind: 'mismatch' };
    // Committed with no answer: a held claim (one in a transaction still open made the insert wait instead).
    if (row.response_status === null) return { kind: 'in-progress' };
    return { kind: 'replay', response: storedResponse(row), expiresAt: row.expires_at };
  }

  async find(credentialId: number, key: string, now: Date): Promise<IdempotencyRecord | undefined> {
    // A plain read: a record a transaction is still claiming is not visible yet, so this never waits on it.
    const row = await this.record(credentialId, key).where('expires_at', '>', now).whereNotNull('response_status').first();
    return row && { fingerprint: row.fingerprint, response: storedResponse(row), expiresAt: row.expires_at };
  }

  /** The key's row, its body as the stored JSON's text. */
  private record(credentialId: number, key: string) {
    return this.trx('idempotency_keys')
      .where({ credential_id: credentialId, key })
      .select<IdempotencyRow[]>('fingerprint', 'response_status', this.trx.raw('response_body::text AS response_body'), 'response_location', 'expires_at');
  }

  async complete(credentialId: number, key: string, response: StoredResponse): Promise<void> {
    // The last write of its transaction: it goes out with the COMMIT, one round trip for both.
    await this.writes.send(
      'idempotency_keys.complete',
      'UPDATE idempotency_keys SET response_status = ?, response_body = ?, response_location = ? WHERE credential_id = ? AND key = ?',
      // The body is JSON text already: stored as it is, so a replay sends these very bytes.
      [response.status, response.body, response.location ?? null, credentialId, key],
    );
  }

  async completeHeld(hold: HeldKey, response: StoredResponse, expiresAt: Date): Promise<boolean> {
    const updated = await this.heldRow(hold).update({
      response_status: response.status,
      response_body: response.body,
      response_location: response.location ?? null,
      expires_at: expiresAt,
    });
    return updated === 1;
  }

  async extendHeld(hold: HeldKey, until: Date): Promise<boolean> {
    return (await this.heldRow(hold).update({ expires_at: until })) === 1;
  }

  async releaseHeld(hold: HeldKey): Promise<void> {
    await this.heldRow(hold).delete();
  }

  /** The key's row while `hold` still holds it: no answer yet, and the hold's own expiry. */
  private heldRow(hold: HeldKey) {
    return this.trx('idempotency_keys').where({ credential_id: hold.credentialId, key: hold.key, expires_at: hold.heldUntil }).whereNull('response_status');
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    // SKIP LOCKED: a record that a request is taking over as new right now is left to it. The locked rows are
    // deleted by their physical address (a TID scan): joined back by key, the planner's guess of a handful of rows
    // made it hash the whole table on every batch once the stored answers were narrow (400,000 rows read for 5,000).
    const result = await this.trx.raw<{ rowCount: number | null }>(
      `DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED
       ))`,
      [now, limit],
    );
    return result.rowCount ?? 0;
  }
}
