import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  duplicatedLegalNumber,
  POSITIVE_TYPES,
  type NewReceivable,
  type Receivable,
  type ReceivableFamily,
  type ReceivableRepository,
} from '@rcs/domain';
import { violatedConstraint } from './pg-errors';
import { prepared } from './prepared';
import { toReceivable, toReceivableRow, type ReceivableRow } from './receivable-rows';
import { lockedForChange } from './row-locks';
import { familiesForUpdate, insertReceivables, legalNumbersInUse } from './receivable-batches';

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
const INSERT_RECEIVABLE = `INSERT INTO receivables (${INSERTED_COLUMNS.join(', ')}) VALUES (${INSERTED_COLUMNS.map(() => '?').join(', ')}) RETURNING *`;

function legalNumberClash(error: unknown, legalNumber: string | null): Error {
  if (violatedConstraint(error) === 'receivables_legal_number') {
    return duplicatedLegalNumber(legalNumber);
  }
  return error as Error;
}

export class KnexReceivableRepository implements ReceivableRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async insert(draft: NewReceivable): Promise<Receivable> {
    try {
      const row = toReceivableRow(draft);
      const { rows } = await prepared<ReceivableRow>(
        this.trx,
        'receivables.insert',
        INSERT_RECEIVABLE,
        INSERTED_COLUMNS.map((column) => row[column]),
      );
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

  async dueForExpiry(today: string, limit: number, customerId?: number): Promise<Receivable[]> {
    // SKIP LOCKED: a receivable someone is paying right now is left for the next run.
    const due = this.trx('receivables')
      .where('status', 'PENDING')
      .where('due_date', '<', today)
      .whereIn('receivable_type', [...POSITIVE_TYPES])
      .orderBy('id')
      .limit(limit);
    if (customerId !== undefined) due.where('customer_id', customerId);
    const rows = await lockedForChange(due.select<ReceivableRow[]>('*')).skipLocked();
    return rows.map(toReceivable);
  }
}
