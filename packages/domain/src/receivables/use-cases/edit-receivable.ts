import type { Clock } from '../../shared/clock';
import { assertIdentityUnchanged } from '../../shared/identity';
import { changeOwned } from '../../shared/change-owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { Receivable, ReceivableEdits, ReceivableSnapshot } from '../receivable';
import { routeSettlementIdOf } from './issue-rules';

/** Fields PUT may repeat but not change (CONTRACT: changing them is 400 validation). */
export interface ReceivableIdentity {
  readonly receivableAccountId?: number;
  readonly receivableType?: string;
  readonly currencyCode?: string;
  readonly clientId?: number | null;
  readonly associateId?: number | null;
  readonly parentReceivableId?: number | null;
}

/** PUT /v1/receivables/{id}: the editable fields; an amount never below its children, nor a child's above its parent. */
export class EditReceivable {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivables' | 'routeSettlements' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: { customerId: number; receivableId: number; edits: ReceivableEdits; identity?: ReceivableIdentity }): Promise<Receivable> {
    const target = { customerId: input.customerId, id: input.receivableId, resource: 'receivable' };
    return changeOwned(
      this.uow,
      (tx) => tx.receivables,
      target,
      async (current, tx) => {
        const snapshot = current.toSnapshot();
        assertIdentityUnchanged(input.identity ?? {}, snapshot);
        const next = current.edit(input.edits, this.clock.now(), await this.regrouping(tx, snapshot, input.edits.externalRoutingCode));
        if (next.amountMinor !== current.amountMinor) {
          const parentId = snapshot.parentReceivableId;
          if (parentId === null) {
            next.assertChildrenFit(await tx.receivables.activeChildren(current.id));
          } else {
            const parent = (await tx.receivables.getForUpdate(parentId))!;
            const children = await tx.receivables.activeChildren(parentId);
            parent.assertChildrenFit(children.map((child) => (child.id === next.id ? next : child)));
          }
        }
        return next;
      },
    );
  }

  /** A new externalRoutingCode moves the receivable to that code's route settlement of its associate, or out of any. */
  private async regrouping(
    tx: Pick<TransactionScope, 'routeSettlements'>,
    current: ReceivableSnapshot,
    code: string | null | undefined,
  ): Promise<{ routeSettlementId: number | null } | undefined> {
    if (code === undefined || code === current.externalRoutingCode) return undefined;
    const settlement = code === null || current.associateId === null ? undefined : await tx.routeSettlements.findByCode(current.customerId, code);
    return { routeSettlementId: routeSettlementIdOf(settlement, current.associateId) };
  }
}
