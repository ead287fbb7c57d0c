import type { Clock } from '../../shared/clock';
import { changeOwned } from '../../shared/change-owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { calendarDay } from '../../receivables/calendar-day';
import type { Transfer } from '../transfer';

type ChangeScope = Pick<TransactionScope, 'transfers' | 'outbox'>;

interface TransferTarget {
  readonly customerId: number;
  readonly transferId: number;
}

/** What approving or rejecting needs to know of the caller: four eyes compares credentials. */
interface Decision extends TransferTarget {
  readonly credentialId: number;
}

const changing = (uow: UnitOfWork<ChangeScope>, input: TransferTarget, apply: (current: Transfer) => Transfer) =>
  changeOwned(uow, (tx) => tx.transfers, { customerId: input.customerId, id: input.transferId, resource: 'transfer' }, apply);

/** POST /v1/transfers/{id}/cancellations: only a SCHEDULED or PENDING_APPROVAL transfer. */
export class CancelTransfer {
  constructor(
    private readonly uow: UnitOfWork<ChangeScope>,
    private readonly clock: Clock,
  ) {}

  execute(input: TransferTarget): Promise<Transfer> {
    return changing(this.uow, input, (current) => current.cancel(this.clock.now()));
  }
}

/** POST /v1/transfers/{id}/approvals: a PENDING_APPROVAL transfer, by another credential than its creator's. */
export class ApproveTransfer {
  constructor(
    private readonly uow: UnitOfWork<ChangeScope>,
    private readonly clock: Clock,
  ) {}

  execute(input: Decision): Promise<Transfer> {
    const now = this.clock.now();
    return changing(this.uow, input, (current) => current.approve(input.credentialId, calendarDay(now), now));
  }
}

/**
 * POST /v1/transfers/{id}/rejections: a PENDING_APPROVAL transfer becomes CANCELLED. Its creator may reject it too:
 * refusing one's own payment needs no second pair of eyes (it could cancel it just the same).
 */
export class RejectTransfer {
  constructor(
    private readonly uow: UnitOfWork<ChangeScope>,
    private readonly clock: Clock,
  ) {}

  execute(input: Decision): Promise<Transfer> {
    return changing(this.uow, input, (current) => current.reject(input.credentialId, this.clock.now()));
  }
}
