import { DomainError } from '../../shared/domain-error';
import type { Receivable } from '../receivable';
import type { IssueReceivable, IssueReceivableInput } from './issue-receivable';

export type ReceivableBatchResult =
  | { readonly index: number; readonly receivable: Receivable }
  | { readonly index: number; readonly error: DomainError };

/** POST /v1/receivables/batches: each item stands alone, as if posted by itself (a savepoint each). */
export class IssueReceivablesBatch {
  constructor(private readonly issue: IssueReceivable) {}

  async execute(input: { items: ReadonlyArray<IssueReceivableInput | DomainError> }): Promise<ReceivableBatchResult[]> {
    const results: ReceivableBatchResult[] = [];
    for (const [index, item] of input.items.entries()) {
      if (item instanceof DomainError) {
        results.push({ index, error: item });
        continue;
      }
      try {
        results.push({ index, receivable: await this.issue.execute(item) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push({ index, error });
      }
    }
    return results;
  }
}
