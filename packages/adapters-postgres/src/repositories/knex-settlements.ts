import type { Knex } from 'knex';
import {
  SETTLEMENT_RULE,
  type DueAccountsPick,
  type OpenedSettlement,
  type Page,
  type PageRequest,
  type ReceivableSnapshot,
  type Settlement,
  type SettlementListFilter,
  type SettlementQueries,
  type SettlementRepository,
} from '@rcs/domain';
import { newEventIds } from './knex-outbox';
import { maintainedTotal, type CountedList } from './list-counts';
import { withMovementEvents } from './movement-events';
import { applyCommonFilter, fetchPage } from './paging';
import { toReceivable, type ReceivableRow } from './receivable-rows';

interface SettlementRow {
  id: string;
  customer_id: string;
  receivable_account_id: string;
  current_account_id: string;
  amount_minor: string;
  currency_code: Settlement['currencyCode'];
  settlement_date: Date;
  creation_date: Date;
  receivable_ids: string[] | null;
}

const toOpenedSettlement = (row: SettlementRow): OpenedSettlement => ({
  id: Number(row.id),
  customerId: Number(row.customer_id),
  receivableAccountId: Number(row.receivable_account_id),
  currentAccountId: Number(row.current_account_id),
  amountMinor: BigInt(row.amount_minor),
  currencyCode: row.currency_code,
  settlementDate: row.settlement_date,
  creationDate: row.creation_date,
});

const toSettlement = (row: SettlementRow): Settlement => ({
  ...toOpenedSettlement(row),
  receivableIds: (row.receivable_ids ?? []).map(Number).sort((a, b) => a - b),
});

/**
 * The settlement step in set-based SQL: a handful of statements per chunk of accounts, whatever the number of
 * receivables, all in the caller's transaction.
 */
export class KnexSettlementRepository implements SettlementRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async lockDue(pick: DueAccountsPick): Promise<readonly number[]> {
    // SKIP LOCKED lets a second run take other accounts instead of waiting. NO KEY UPDATE (see lockedForChange):
    // receivables issued on these accounts meanwhile need not wait for the sweep.
    const { rows } = await this.trx.raw<{ rows: Array<{ id: string }> }>(
      `SELECT id FROM receivable_accounts
       WHERE balance_minor > 0 AND (?::bigint IS NULL OR customer_id = ?) AND (?::bigint[] IS NULL OR id = ANY(?)) AND id <> ALL(?::bigint[])
       ORDER BY id LIMIT ? FOR NO KEY UPDATE SKIP LOCKED`,
      [
        pick.customerId ?? null,
        pick.customerId ?? null,
        pick.accountIds ? [...pick.accountIds] : null,
        pick.accountIds ? [...pick.accountIds] : null,
        [...(pick.excluding ?? [])],
        pick.limit,
      ],
    );
    return rows.map((row) => Number(row.id));
  }

  async settle(now: Date, accountIds: readonly number[]): Promise<readonly OpenedSettlement[]> {
    if (accountIds.length === 0) return [];
    const { rows: created } = await this.trx.raw<{ rows: SettlementRow[] }>(
      `INSERT INTO settlements (customer_id, receivable_account_id, current_account_id, amount_minor, currency_code, settlement_date, creation_date)
       SELECT ra.customer_id, ra.id, ca.id, ra.balance_minor, ra.currency_code, ?, ?
       FROM receivable_accounts ra JOIN current_accounts ca ON ca.customer_id = ra.customer_id AND ca.account_type = 'MAIN'
       WHERE ra.id = ANY(?::bigint[])
       ORDER BY ra.id
       RETURNING *`,
      [now, now, [...accountIds]],
    );
    if (created.length > accountIds.length) {
      throw new Error(`the customers of receivable accounts ${accountIds.join(', ')} have more than one MAIN current account between them`);
    }
    if (created.length < accountIds.length) {
      const settled = new Set(created.map((r) => Number(r.receivable_account_id)));
      throw new Error(`receivable accounts ${accountIds.filter((id) => !settled.has(id)).join(', ')} have no MAIN current account to settle into`);
    }
    const settlementIds = created.map((r) => r.id);
    // The SETTLEMENT_OUT movements, their events and the balances they empty, in one statement.
    await this.trx.raw(
      `${withMovementEvents(
        `INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code,
           settlement_id, movement_date)
         SELECT customer_id, receivable_account_id, 'RECEIVABLE', 'DEBIT', 'SETTLEMENT', 'SETTLEMENT_OUT', amount_minor, currency_code, id, ?::timestamptz
         FROM settlements WHERE id = ANY(?::bigint[])`,
      )}
       UPDATE receivable_accounts ra SET balance_minor = ra.balance_minor - moved.amount_minor FROM moved WHERE ra.id = moved.account_id`,
      [now, settlementIds, newEventIds(settlementIds.length)],
    );
    // The domain's rule says which statuses settle and into what. No RETURNING: an account may hold a million
    // receivables to settle; settledReceivables streams them.
    await this.trx.raw(
      `UPDATE receivables r SET status = ?, settlement_id = s.id, modification_date = ?, version = r.version + 1
       FROM settlements s
       WHERE s.id = ANY(?::bigint[]) AND r.customer_id = s.customer_id AND r.receivable_account_id = s.receivable_account_id AND r.status = ANY(?::text[])`,
      [SETTLEMENT_RULE.to, now, settlementIds, [...SETTLEMENT_RULE.from]],
    );
    return created.map(toOpenedSettlement);
  }

  async *settledReceivables(settlements: readonly OpenedSettlement[], batchSize: number): AsyncIterable<readonly ReceivableSnapshot[]> {
    if (settlements.length === 0) return;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error(`batch size must be a positive integer, got ${batchSize}`);
    // A cursor: one sort, then batch after batch, however many rows (it closes with the transaction at the latest).
    await this.trx.raw('DECLARE settled_receivables NO SCROLL CURSOR FOR SELECT * FROM receivables WHERE settlement_id = ANY(?::bigint[]) ORDER BY id', [
      settlements.map((s) => s.id),
    ]);
    for (;;) {
      const { rows } = await this.trx.raw<{ rows: ReceivableRow[] }>(`FETCH ${batchSize} FROM settled_receivables`);
      if (rows.length > 0) yield rows.map((row) => toReceivable(row).toSnapshot());
      if (rows.length < batchSize) break;
    }
    await this.trx.raw('CLOSE settled_receivables');
  }

  async credit(settlements: readonly OpenedSettlement[], now: Date): Promise<void> {
    if (settlements.length === 0) return;
    // Current accounts locked in id order, so two runs crediting the same accounts cannot deadlock. NO KEY
    // UPDATE, not UPDATE: the settlement rows of this transaction hold KEY SHARE on them through their foreign key.
    await this.trx.raw(
      `${withMovementEvents(
        `INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code,
           settlement_id, movement_date)
         SELECT customer_id, current_account_id, 'CURRENT', 'CREDIT', 'SETTLEMENT', 'SETTLEMENT_IN', amount_minor, currency_code, id, ?::timestamptz
         FROM settlements WHERE id = ANY(?::bigint[])`,
      )}, credit AS (
         SELECT account_id, SUM(amount_minor) AS total FROM moved GROUP BY account_id
       ), locked AS (
         SELECT ca.id FROM current_accounts ca JOIN credit ON credit.account_id = ca.id ORDER BY ca.id FOR NO KEY UPDATE OF ca
       )
       UPDATE current_accounts ca SET balance_minor = ca.balance_minor + credit.total, last_settlement_date = ?, modification_date = ?
       FROM credit, locked WHERE ca.id = credit.account_id AND locked.id = ca.id`,
      [now, settlements.map((s) => s.id), newEventIds(settlements.length), now, now],
    );
  }
}

const WITH_RECEIVABLES = 'ARRAY(SELECT r.id FROM receivables r WHERE r.settlement_id = settlements.id) AS receivable_ids';

const COUNTED: CountedList<SettlementListFilter> = { list: 'settlements', scopes: { receivableAccountId: 'account' }, status: null };

export class KnexSettlementQueries implements SettlementQueries {
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Settlement | undefined> {
    const row = await this.db()('settlements').select('settlements.*', this.db().raw(WITH_RECEIVABLES)).where({ id }).first<SettlementRow | undefined>();
    return row && toSettlement(row);
  }

  list(filter: SettlementListFilter, page: PageRequest): Promise<Page<Settlement>> {
    const db = this.db();
    const query = applyCommonFilter(db('settlements').where('customer_id', filter.customerId), filter, 'settlements');
    if (filter.receivableAccountId !== undefined) query.where('receivable_account_id', filter.receivableAccountId);
    return fetchPage(query, 'settlements', page, toSettlement, { columns: [db.raw(WITH_RECEIVABLES)], total: maintainedTotal(db, COUNTED, filter) });
  }
}
