import { eachOnItsOwn, type BatchOutcome } from '../../shared/batch';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { ReceivableAccount } from '../receivable-account';
import type { OpenReceivableAccount, OpenReceivableAccountInput } from './open-receivable-account';

export const MAX_BATCH_ITEMS = 1000;

/** POST /v1/receivable-accounts/batches: each item stands alone, as if posted by itself. */
export class OpenReceivableAccountsBatch {
  constructor(
    private readonly uow: UnitOfWork<unknown>,
    private readonly open: OpenReceivableAccount,
  ) {}

  execute(input: { customerId: number; items: ReadonlyArray<Omit<OpenReceivableAccountInput, 'customerId'>> }): Promise<BatchOutcome<ReceivableAccount>[]> {
    return eachOnItsOwn(this.uow, input.items, (item) => this.open.execute({ ...item, customerId: input.customerId }));
  }
}
