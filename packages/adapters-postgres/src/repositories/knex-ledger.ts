import type { Knex } from 'knex';
import {
  MOVEMENT_TYPES,
  OPERATION_TYPES,
  type AccountKind,
  type LedgerMismatch,
  type LedgerQueries,
  type LedgerRepository,
  type Movement,
  type MovementListFilter,
  type NewMovement,
  type Page,
  type PageRequest,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { fetchPage, type PageOptions } from './paging';

export interface MovementRow {
  id: string;
  customer_id: string;
  account_id: string;
  account_kind: AccountKind;
  movement_type: Movement['movementType'];
  operation_type: Movement['operationType'];
  subtype: Movement['subtype'];
  amount_minor: string;
  currency_code: Movement['currencyCode'];
  counterparty_name: string | null;
  counterparty_tax_id: string | null;
  settlement_id: string | null;
  provider_reference: string | null;
  transfer_id: string | null;
  movement_date: Date;
}

export const toMovement = (row: MovementRow): Movement => ({
  id: Number(row.id),
  customerId: Number(row.customer_id),
  accountId: Number(row.account_id),
  accountKind: row.account_kind,
  movementType: row.movement_type,
  operationType: row.operation_type,
  subtype: row.subtype,
  amountMinor: BigInt(row.amount_minor),
  currencyCode: row.currency_code,
  counterParty: row.counterparty_name === null ? null : { name: row.counterparty_name, taxId: row.counterparty_tax_id ?? '' },
  settlementId: row.settlement_id === null ? null : Number(row.settlement_id),
  providerReference: row.provider_reference,
  transferId: row.transfer_id === null ? null : Number(row.transfer_id),
  movementDate: row.movement_date,
});

const BALANCE_TABLE: Record<AccountKind, string> = { RECEIVABLE: 'receivable_accounts', CURRENT: 'current_accounts' };

export class KnexLedgerRepository implements LedgerRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async append(m: NewMovement): Promise<Movement> {
    // One statement: the movement and the balance it changes cannot come apart.
    const signed = (m.movementType === 'CREDIT' ? m.amountMinor : -m.amountMinor).toString();
    const { rows } = await this.trx.raw<{ rows: MovementRow[] }>(
      `WITH moved AS (
         INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code,
                                counterparty_name, counterparty_tax_id, settlement_id, provider_reference, transfer_id, movement_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *
       ), balance AS (
         UPDATE ${BALANCE_TABLE[m.accountKind]} SET balance_minor = balance_minor + ? WHERE id = ? RETURNING id
       )
       SELECT moved.* FROM moved, balance`,
      [
        m.customerId,
        m.accountId,
        m.accountKind,
        m.movementType,
        m.operationType,
        m.subtype,
        m.amountMinor.toString(),
        m.currencyCode,
        m.counterParty?.name ?? null,
        m.counterParty?.taxId ?? null,
        m.settlementId,
        m.providerReference,
        m.transferId,
        m.movementDate,
        signed,
        m.accountId,
      ],
    );
    if (rows.length !== 1) throw new Error(`movement on account ${m.accountId} found no ${m.accountKind} account to balance`);
    return toMovement(rows[0]);
  }

  async appendAll(movements: readonly NewMovement[]): Promise<Movement[]> {
    if (movements.length === 0) return [];
    if (movements.some((m) => m.accountKind !== 'CURRENT')) throw new Error('appendAll moves current accounts only');
    // One statement whatever the count: the rows, then each account's balance by their sum. The balance's CHECK
    // (>= 0) refuses an overdraft the caller's check let through, failing the whole transaction.
    const column = (pick: (m: NewMovement) => Knex.Value): Knex.Value => movements.map(pick) as Knex.Value;
    const { rows } = await this.trx.raw<{ rows: MovementRow[] }>(
      `WITH moved AS (
         INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code,
                                counterparty_name, counterparty_tax_id, transfer_id, movement_date)
         SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::numeric[], ?::text[],
                              ?::text[], ?::text[], ?::bigint[], ?::timestamptz[])
         RETURNING *
       ), total AS (
         SELECT account_id, SUM(CASE WHEN movement_type = 'CREDIT' THEN amount_minor ELSE -amount_minor END) AS delta FROM moved GROUP BY account_id
       ), balance AS (
         UPDATE current_accounts ca SET balance_minor = ca.balance_minor + total.delta FROM total WHERE ca.id = total.account_id
       )
       SELECT * FROM moved`,
      [
        column((m) => m.customerId),
        column((m) => m.accountId),
        column((m) => m.accountKind),
        column((m) => m.movementType),
        column((m) => m.operationType),
        column((m) => m.subtype),
        column((m) => m.amountMinor.toString()),
        column((m) => m.currencyCode),
        column((m) => m.counterParty?.name ?? null),
        column((m) => m.counterParty?.taxId ?? null),
        column((m) => m.transferId),
        column((m) => m.movementDate),
      ],
    );
    return rows.map(toMovement);
  }

  async findByProviderReference(reference: string): Promise<Movement | undefined> {
    // A lock on the reference itself, which may have no row yet: the account's lock does not serialize two
    // notifications naming different CVUs. Taken before any account lock, so it never waits while holding one.
    await this.trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`provider reference ${reference}`]);
    const row = await this.trx('movements').where({ provider_reference: reference }).first<MovementRow | undefined>();
    return row && toMovement(row);
  }
}

/** An account's id names it whatever its kind (one sequence numbers both), so accountKind narrows nothing. */
const COUNTED: CountedList<MovementListFilter> = {
  list: 'movements',
  scopes: { accountId: 'account' },
  status: 'operationType',
  unfiltering: ['accountKind', 'order'],
};

/**
 * With one of the two kinds filtered, the other's values as ranges of migration 036's index (which leads with both),
 * merged in date order; none without a kind (movements_account serves the list) or with both (one range).
 */
function kindBranches(filter: MovementListFilter): PageOptions['branches'] {
  if ((filter.operationType === undefined) === (filter.movementType === undefined)) return undefined;
  return filter.operationType === undefined ? { column: 'operation_type', values: OPERATION_TYPES } : { column: 'movement_type', values: MOVEMENT_TYPES };
}

export class KnexLedgerQueries implements LedgerQueries {
  constructor(private readonly db: () => Knex) {}

  async listMovements(filter: MovementListFilter, page: PageRequest): Promise<Page<Movement>> {
    const db = this.db();
    const query = db('movements').where({ customer_id: filter.customerId, account_id: filter.accountId });
    if (filter.fromDate !== undefined) query.where('movement_date', '>=', filter.fromDate);
    if (filter.toDate !== undefined) query.where('movement_date', '<=', filter.toDate);
    if (filter.movementType !== undefined) query.where('movement_type', filter.movementType);
    if (filter.operationType !== undefined) query.where('operation_type', filter.operationType);
    return fetchPage(query, 'movements', page, toMovement, {
      orderBy: { column: 'movement_date', order: filter.order },
      total: maintainedTotal(db, COUNTED, filter),
      branches: kindBranches(filter),
    });
  }

  async mismatches(): Promise<LedgerMismatch[]> {
    const { rows } = await this.db().raw<{ rows: Array<{ id: string; kind: AccountKind; balance_minor: string; movements_minor: string }> }>(`
      SELECT a.id, a.kind, a.balance_minor, COALESCE(m.total, 0) AS movements_minor
      FROM (SELECT id, 'RECEIVABLE' AS kind, balance_minor FROM receivable_accounts
            UNION ALL SELECT id, 'CURRENT', balance_minor FROM current_accounts) a
      LEFT JOIN (SELECT account_id, SUM(CASE WHEN movement_type = 'CREDIT' THEN amount_minor ELSE -amount_minor END) AS total
                 FROM movements GROUP BY account_id) m ON m.account_id = a.id
      WHERE a.balance_minor <> COALESCE(m.total, 0)
      ORDER BY a.id`);
    return rows.map((r) => ({
      accountId: Number(r.id),
      accountKind: r.kind,
      balanceMinor: BigInt(r.balance_minor),
      movementsMinor: BigInt(r.movements_minor),
    }));
  }
}
