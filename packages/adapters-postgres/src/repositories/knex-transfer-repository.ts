import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  TRANSFER_STATUSES,
  type DueTransfers,
  type QueuePosition,
  type NewTransfer,
  type Page,
  type PageRequest,
  type Transfer,
  type TransferListFilter,
  type TransferQueries,
  type TransferRepository,
  type TransferSnapshot,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage, whereOneValue } from './paging';
import { lockedForChange } from './row-locks';
import { toTransfer, toTransferRow, type TransferRow } from './transfer-rows';

/** A transfer's day to be paid, as the worker's indexes spell it (migrations 037, 044): unscheduled ones are due from the start. */
const DUE_DAY = "COALESCE(scheduled_date, '-infinity'::date)";

export class KnexTransferRepository implements TransferRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async insert(draft: NewTransfer): Promise<Transfer> {
    const [row] = await this.trx('transfers').insert(toTransferRow(draft)).returning<TransferRow[]>('*');
    return toTransfer(row);
  }

  async getForUpdate(id: number): Promise<Transfer | undefined> {
    const row = await lockedForChange(this.trx('transfers').where({ id }).select<TransferRow[]>('*')).first<TransferRow | undefined>();
    return row && toTransfer(row);
  }

  async update(transfer: Transfer): Promise<void> {
    const next = transfer.toSnapshot();
    const changed = await this.trx('transfers')
      .where({ id: next.id, version: next.version - 1 })
      .update(toTransferRow(next));
    if (changed !== 1) throw new ConcurrentModificationError('transfer', next.id);
  }

  async lockDue(due: DueTransfers): Promise<Transfer[]> {
    // One range of migration 044's partial index, up to today: a pass reads what it can pay, however many transfers
    // ever ended, are scheduled for a later day, or wait for their alias to be resolved.
    return this.select(
      `status IN ('PENDING', 'SCHEDULED') AND ${DUE_DAY} <= ?::date
       AND (type = 'INTERNAL_TRANSFER' OR destination_cbu_cvu IS NOT NULL) ${due.customerId === undefined ? '' : 'AND customer_id = ?'}
       ORDER BY ${DUE_DAY}, id LIMIT ? FOR NO KEY UPDATE SKIP LOCKED`,
      [due.today, ...(due.customerId === undefined ? [] : [due.customerId]), due.limit],
    );
  }

  async dueUnresolved(due: DueTransfers & { readonly after?: QueuePosition }): Promise<Transfer[]> {
    const { after, customerId } = due;
    return this.select(
      `status IN ('PENDING', 'SCHEDULED') AND ${DUE_DAY} <= ?::date
       AND type = 'OUTGOING_TRANSFER' AND destination_cbu_cvu IS NULL ${customerId === undefined ? '' : 'AND customer_id = ?'}
       ${after ? `AND (${DUE_DAY}, id) > (COALESCE(?::date, '-infinity'::date), ?)` : ''}
       ORDER BY ${DUE_DAY}, id LIMIT ?`,
      [due.today, ...(customerId === undefined ? [] : [customerId]), ...(after ? [after.scheduledDate, after.id] : []), due.limit],
    );
  }

  async lockLeaseEnded(now: Date, limit: number, customerId?: number): Promise<Transfer[]> {
    // The partial index transfers_leased holds IN_PROGRESS transfers only, by the end of their lease.
    return this.select(
      `status = 'IN_PROGRESS' AND claimed_until < ? ${customerId === undefined ? '' : 'AND customer_id = ?'}
       ORDER BY claimed_until, id LIMIT ? FOR NO KEY UPDATE SKIP LOCKED`,
      [now, ...(customerId === undefined ? [] : [customerId]), limit],
    );
  }

  async lockInProgress(ids: readonly number[]): Promise<Transfer[]> {
    if (ids.length === 0) return [];
    return this.select(`id = ANY(?::bigint[]) AND status = 'IN_PROGRESS' ORDER BY id FOR NO KEY UPDATE`, [[...ids]]);
  }

  async updateAll(transfers: readonly Transfer[]): Promise<void> {
    if (transfers.length === 0) return;
    const rows = transfers.map((t) => t.toSnapshot());
    const column = (pick: (t: TransferSnapshot) => Knex.Value): Knex.Value => rows.map(pick) as Knex.Value;
    // What the worker changes; the rest of a transfer is fixed once it is PENDING.
    const result = await this.trx.raw<{ rowCount: number }>(
      `UPDATE transfers t SET status = u.status, destination_cbu_cvu = u.cbu_cvu, execution_date = u.execution_date, failure_reason = u.failure_reason,
         attempts = u.attempts, claimed_until = u.claimed_until, claimed_by = u.claimed_by, modification_date = u.modification_date, version = u.version
       FROM unnest(?::bigint[], ?::text[], ?::text[], ?::timestamptz[], ?::text[], ?::int[], ?::timestamptz[], ?::text[], ?::timestamptz[], ?::int[])
         AS u(id, status, cbu_cvu, execution_date, failure_reason, attempts, claimed_until, claimed_by, modification_date, version)
       WHERE t.id = u.id AND t.version = u.version - 1`,
      [
        column((t) => t.id),
        column((t) => t.status),
        column((t) => t.destination.cbuCvu),
        column((t) => t.executionDate),
        column((t) => t.failureReason),
        column((t) => t.processing.attempts),
        column((t) => t.processing.claimedUntil),
        column((t) => t.processing.claimedBy),
        column((t) => t.modificationDate),
        column((t) => t.version),
      ],
    );
    if (result.rowCount !== rows.length) throw new ConcurrentModificationError('transfer', rows[0].id);
  }

  private async select(where: string, bindings: readonly Knex.Value[]): Promise<Transfer[]> {
    const { rows } = await this.trx.raw<{ rows: TransferRow[] }>(`SELECT * FROM transfers WHERE ${where}`, bindings);
    return rows.map(toTransfer);
  }
}

/** Column and filter member, for the exact-match filters (each served by an index leading with customer_id). */
const EXACT: ReadonlyArray<[string, keyof TransferListFilter]> = [
  ['type', 'type'],
  ['status', 'status'],
  ['source_account_id', 'sourceAccountId'],
  ['external_id', 'externalId'],
];

/** By customer, with or without status (migration 018). */
const COUNTED: CountedList<TransferListFilter> = { list: 'transfers', scopes: {} };

export class KnexTransferQueries implements TransferQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Transfer | undefined> {
    const row = await this.db()('transfers').where({ id }).first<TransferRow | undefined>();
    return row && toTransfer(row);
  }

  list(filter: TransferListFilter, page: PageRequest): Promise<Page<Transfer>> {
    const query = applyCommonFilter(this.db()('transfers').where('customer_id', filter.customerId), filter, 'transfers');
    // A status, or else a type without an account, is read in order from the index leading with it (whereOneValue),
    // never from the customer's newest transfers filtered one by one.
    const oneValueOf = filter.status !== undefined ? 'status' : filter.type !== undefined && filter.sourceAccountId === undefined ? 'type' : undefined;
    for (const [column, member] of EXACT) {
      const value = filter[member];
      if (value === undefined) continue;
      if (column === oneValueOf) whereOneValue(query, column, value as string);
      else query.where(column, value);
    }
    // An account's transfers without a status: merged status ranges of its index (migration 040).
    const branches = filter.sourceAccountId !== undefined && filter.status === undefined ? { column: 'status', values: TRANSFER_STATUSES } : undefined;
    return fetchPage(query, 'transfers', page, toTransfer, {
      total: maintainedTotal(this.db(), COUNTED, filter),
      branches,
      // Migrations 010 and 040: the indexes hold creation_date descending after the status or type.
      ...(oneValueOf === undefined ? {} : { oneValueOf: { column: oneValueOf, indexOrder: 'desc' as const } }),
    });
  }
}
