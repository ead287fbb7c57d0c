import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Transfer } from '../transfer';
import type { TransferListFilter, TransferQueries } from '../transfer-repository';

export class GetTransfer {
  constructor(private readonly queries: TransferQueries) {}

  async execute(input: { customerId: number; transferId: number }): Promise<Transfer> {
    return ownedBy(await this.queries.get(input.transferId), input.customerId, 'transfer', input.transferId);
  }
}

/** The caller's transfers; a sourceAccountId of another customer's simply matches nothing (CONTRACT). */
export class ListTransfers {
  constructor(private readonly queries: TransferQueries) {}

  execute(input: { filter: TransferListFilter; page: PageRequest }): Promise<Page<Transfer>> {
    return this.queries.list(input.filter, input.page);
  }
}
