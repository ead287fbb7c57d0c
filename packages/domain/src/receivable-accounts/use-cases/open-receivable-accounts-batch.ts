import { DomainError } from '../../shared/domain-error';
import type { ReceivableAccount } from '../receivable-account';
import type { OpenReceivableAccount, OpenReceivableAccountInput } from './open-receivable-account';

export const MAX_BATCH_ITEMS = 1000;

export type BatchItemResult =
  | { readonly index: number; readonly account: ReceivableAccount }
  | { readonly index: number; readonly error: DomainError };

/**
 * POST /v1/receivable-accounts/batches: each item stands alone, as if posted by itself. Inside a request's
 * transaction each item is a savepoint, so a failed item leaves no trace and does not undo the others.
 */
export class OpenReceivableAccountsBatch {
  constructor(private readonly open: OpenReceivableAccount) {}

  async execute(input: { customerId: number; items: ReadonlyArray<Omit<OpenReceivableAccountInput, 'customerId'>> }): Promise<BatchItemResult[]> {
    const results: BatchItemResult[] = [];
    for (const [index, item] of input.items.entries()) {
      try {
        results.push({ index, account: await this.open.execute({ ...item, customerId: input.customerId }) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push({ index, error });
      }
    }
    return results;
  }
}
