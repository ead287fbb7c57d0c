import type { Knex } from 'knex';
import {
  assertDistinct,
  ConcurrentModificationError,
  duplicatedLegalNumber,
  Receivable,
  type NewReceivable,
  type ReceivableFamily,
  type ReceivableRepository,
} from '@rcs/domain';
import { violatedConstraint } from './pg-errors';
import { prepared } from './prepared';
import { toReceivable, toReceivableRow, type ReceivableRow } from './receivable-rows';
import { lockedForChange } from './row-locks';
import { familiesForUpdate, insertReceivables, legalNumbersInUse } from './receivable-batches';
import type { TransactionWrites } from './transaction-writes';

type ReceivableColumn = keyof ReturnType<typeof toReceivableRow>;

const INSERTED_COLUMNS: readonly ReceivableColumn[] = [
  'customer_id',
  'receivable_account_id',
  'client_id',
  'associate_id',
  'amount_minor',
  'currency_code',
  'receivable_type',
  'status',
  'legal_number',
  'description',
  'external_routing_code',
  'issue_date',
  'due_date',
  'receivable_date',
  'parent_receivable_id',
  'attachment_uri',
  'invoice_data',
  'route_settlement_id',
  'creation_date',
  'modification_date',
  'version',
];
const insertSql = (columns: readonly string[], returning: string) =>
  `INSERT INTO receivables (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${returning}`;
const INSERT_RECEIVABLE = insertSql(INSERTED_COLUMNS, ' RETURNING *');
const INSERT_NUMBERED = insertSql(['id', ...INSERTED_COLUMNS], ' RETURNING *');
const SEND_NUMBERED = insertSql(['id', ...INSERTED_COLUMNS], '');

function legalNumberClash(error: unknown, legalNumber: string | null): Error {
  if (violatedConstraint(error) === 'receivables_legal_number') {
    return duplicatedLegalNumber(legalNumber);
  }
  return error as Error;
}

export class KnexReceivableRepository implements ReceivableRepository {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly writes: TransactionWrites,
  ) {}

  async newId(): Promise<number> {
    const { rows } = await prepared<{ id: string }>(this.trx, 'receivables.new_id', `SELECT nextval('receivables_id_seq') AS id`, []);
    return Number(rows[0].id);
  }

  async insert(draft: NewReceivable, id?: number): Promise<Receivable> {
    const row = toReceivableRow(draft);
    const values = INSERTED_COLUMNS.map((column) => row[column]);
    // Numbered already and without a legal number (the one unique value a caller chooses), the row cannot be
    // refused: it is sent without waiting and goes out with the event, the stored answer and the COMMIT, so the
    // list counts its trigger updates stay locked for that last trip alone, not for the rest of the request.
    if (id !== undefined && draft.legalNumber === null) {
      await this.writes.send('receivables.send_numbered', SEND_NUMBERED, [id, ...values]);
      return Receivable.rehydrate({ ...draft, id, modificationDate: draft.creationDate, version: 1 });
    }
    try {
      const { rows } =
        id === undefined
          ? await prepared<ReceivableRow>(this.trx, 'receivables.insert', INSERT_RECEIVABLE, values)
          : await prepared<ReceivableRow>(this.trx, 'receivables.insert_numbered', INSERT_NUMBERED, [id, ...values]);
      return toReceivable(rows[0]);
    } catch (error) {
      throw legalNumberClash(error, draft.legalNumber);
    }
  }

  insertMany(drafts: readonly NewReceivable[]): Promise<Receivable[]> {
    return insertReceivables(this.trx, drafts);
  }

  legalNumbersInUse(customerId: number, legalNumbers: readonly string[]): Promise<Set<string>> {
    return legalNumbersInUse(this.trx, customerId, legalNumbers);
  }

  familiesForUpdate(ids: readonly number[]): Promise<ReceivableFamily[]> {
    return familiesForUpdate(this.trx, ids);
  }

  async getForUpdate(id: number): Promise<Receivable | undefined> {
    // Its parent is locked with it, first: a parent's id is always the lower, and rows are locked in the sorted order.
    const rows = await lockedForChange(
      this.trx('receivables')
        .whereRaw('id = ANY(ARRAY[?::bigint, (SELECT parent_receivable_id FROM receivables WHERE id = ?)])', [id, id])
        .orderBy('id')
        .select<ReceivableRow[]>('*'),
    );
    const row = rows.find((r) => Number(r.id) === id);
    return row && toReceivable(row);
  }

  async activeChildren(parentId: number): Promise<Receivable[]> {
    const rows = await lockedForChange(
      this.trx('receivables').where({ parent_receivable_id: parentId }).whereNot({ status: 'DISABLED' }).orderBy('id').select<ReceivableRow[]>('*'),
    );
    return rows.map(toReceivable);
  }

  async update(receivable: Receivable): Promise<void> {
    const next = receivable.toSnapshot();
    let changed: number;
    try {
      changed = await this.trx('receivables')
        .where({ id: next.id, version: next.version - 1 })
        .update(toReceivableRow(next));
    } catch (error) {
      throw legalNumberClash(error, next.legalNumber);
    }
    if (changed !== 1) throw new ConcurrentModificationError('receivable', next.id);
  }

  async updateMany(receivables: readonly Receivable[]): Promise<void> {
    assertDistinct(receivables);
    if (receivables.length === 0) return;
    const snapshots = receivables.map((r) => r.toSnapshot());
    // Each row as JSON, read back as receivables rows: one statement, its count trigger run once (in scope order).
    const rows = snapshots.map((s) => ({ id: s.id, ...toReceivableRow(s), invoice_data: s.invoiceData }));
    const columns = Object.keys(rows[0]).filter((column) => column !== 'id' && column !== 'legal_number');
    const { rows: updated } = await this.trx.raw<{ rows: Array<{ id: string }> }>(
      `UPDATE receivables r SET ${columns.map((column) => `${column} = v.${column}`).join(', ')}
       FROM json_populate_recordset(NULL::receivables, ?::json) v
       WHERE r.id = v.id AND r.version = v.version - 1 AND r.legal_number IS NOT DISTINCT FROM v.legal_number
       RETURNING r.id`,
      [JSON.stringify(rows)],
    );
    const changed = new Set(updated.map((row) => Number(row.id)));
    const stale = snapshots.find((s) => !changed.has(s.id));
    if (stale) throw new ConcurrentModificationError('receivable', stale.id);
  }

  async dueForExpiry(today: string, limit: number, customerId?: number): Promise<Receivable[]> {
    // Customer by customer, each one's queue in due order from migration 035's index, so a batch reads what it takes
    // (and one probe per customer with nothing due), never the paid or settled history.
    // Locked as each is read (NO KEY: row-locks.ts says why), SKIP LOCKED: one being paid right now is left for the
    // next run, and the scan goes on past it, so a batch comes short only when the queue is done.
    const { rows } = await this.trx.raw<{ rows: ReceivableRow[] }>(
      `SELECT due.* FROM customers c CROSS JOIN LATERAL (
         SELECT * FROM receivables r
         WHERE r.customer_id = c.id AND r.status = 'PENDING' AND r.due_date < ?
         ORDER BY r.due_date, r.id LIMIT ?
         FOR NO KEY UPDATE SKIP LOCKED
       ) due
       ${customerId === undefined ? '' : 'WHERE c.id = ?'}
       LIMIT ?`,
      [today, limit, ...(customerId === undefined ? [] : [customerId]), limit],
    );
    return rows.map(toReceivable);
  }
}
