import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { ReceivableAccountQueries } from '../../receivable-accounts/receivable-account-repository';
import type { Receivable } from '../receivable';
import type { ReceivableListFilter, ReceivableQueries } from '../receivable-repository';

export class GetReceivable {
  constructor(private readonly queries: ReceivableQueries) {}

  async execute(input: { customerId: number; receivableId: number }): Promise<Receivable> {
    return ownedBy(await this.queries.get(input.receivableId), input.customerId, 'receivable', input.receivableId);
  }
}

export class ListReceivables {
  constructor(
    private readonly queries: ReceivableQueries,
    private readonly accounts: ReceivableAccountQueries,
  ) {}

  /** With `accountId` (GET /v1/receivable-accounts/{id}/receivables) the account must be the caller's. */
  async execute(input: { filter: ReceivableListFilter; page: PageRequest; accountId?: number }): Promise<Page<Receivable>> {
    if (input.accountId === undefined) return this.queries.list(input.filter, input.page);
    ownedBy((await this.accounts.get(input.accountId))?.account, input.filter.customerId, 'receivable account', input.accountId);
    return this.queries.list({ ...input.filter, receivableAccountId: input.accountId }, input.page);
  }
}
