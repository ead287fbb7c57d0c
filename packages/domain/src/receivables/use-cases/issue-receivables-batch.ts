import { eachOnItsOwn, type BatchOutcome } from '../../shared/batch';
import type { DomainError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { Receivable } from '../receivable';
import type { IssueReceivable, IssueReceivableInput } from './issue-receivable';

/** POST /v1/receivables/batches: each item stands alone, as if posted by itself. */
export class IssueReceivablesBatch {
  constructor(
    private readonly uow: UnitOfWork<unknown>,
    private readonly issue: IssueReceivable,
  ) {}

  execute(input: { items: ReadonlyArray<IssueReceivableInput | DomainError> }): Promise<BatchOutcome<Receivable>[]> {
    return eachOnItsOwn(this.uow, input.items, (item) => this.issue.execute(item));
  }
}
