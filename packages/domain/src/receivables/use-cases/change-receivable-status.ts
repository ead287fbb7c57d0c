import type { Clock } from '../../shared/clock';
import { DomainError, InvalidStatusTransitionError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { Receivable, ReceivableStatus } from '../receivable';

/** Statuses a caller may ask for; EXPIRED and SETTLED are reached only by the service's own jobs. */
export const REQUESTABLE_STATUSES = ['PAID', 'PENDING', 'DISABLED'] as const;
export type RequestableStatus = (typeof REQUESTABLE_STATUSES)[number];

const isRequestable = (status: ReceivableStatus): status is RequestableStatus => (REQUESTABLE_STATUSES as readonly string[]).includes(status);

/** Saves a receivable with its events. */
export async function store(tx: Pick<TransactionScope, 'receivables' | 'outbox'>, receivable: Receivable): Promise<void> {
  await tx.receivables.update(receivable);
  await tx.outbox.record(receivable.events);
}

/**
 * PATCH /v1/receivables/{id}/status: PAID (from PENDING or EXPIRED), PENDING (undo a payment), DISABLED (cancel).
 * Active children follow their parent to PAID and back to PENDING; a parent with active children cannot be
 * cancelled (cancel the children first). A negative receivable moves only with its parent, except to be cancelled.
 * A final receivable refuses whatever is asked, before any of these rules (CONTRACT).
 */
export class ChangeReceivableStatus {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivables' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: { customerId: number; receivableId: number; status: ReceivableStatus }): Promise<Receivable> {
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const current = ownedBy(await tx.receivables.getForUpdate(input.receivableId), input.customerId, 'receivable', input.receivableId);
      current.assertModifiable();
      if (!isRequestable(input.status)) {
        throw new InvalidStatusTransitionError(
          'receivable',
          current.id,
          current.status,
          `set to ${input.status} on request (only the service's own jobs set it)`,
        );
      }
      if (input.status === 'DISABLED') return this.cancel(tx, current, now);
      if (!current.isPositive) {
        const type = current.toSnapshot().receivableType;
        throw new InvalidStatusTransitionError('receivable', current.id, current.status, `set to ${input.status} on its own (a ${type} follows its parent)`);
      }
      const next = input.status === 'PAID' ? current.markPaid(now) : current.undoPayment(now);
      await store(tx, next);
      await this.moveChildren(tx, current.id, next.status, now);
      return next;
    });
  }

  private async cancel(tx: Pick<TransactionScope, 'receivables' | 'outbox'>, current: Receivable, now: Date): Promise<Receivable> {
    if (current.isPositive && (await tx.receivables.activeChildren(current.id)).length > 0) {
      throw new DomainError('receivable-has-related-items', `receivable ${current.id} has active children; cancel them first`);
    }
    const next = current.cancel(now);
    await store(tx, next);
    return next;
  }

  private async moveChildren(tx: Pick<TransactionScope, 'receivables' | 'outbox'>, parentId: number, status: ReceivableStatus, now: Date): Promise<void> {
    for (const child of await tx.receivables.activeChildren(parentId)) {
      if (child.status !== status) await store(tx, child.follow(status, now));
    }
  }
}
