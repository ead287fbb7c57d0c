import type { ClientQueries } from '../../clients/client-repository';
import type { AssociateQueries } from '../../associates/associate-repository';
import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { ReceivableAccountListFilter, ReceivableAccountQueries, ReceivableAccountRecord } from '../receivable-account-repository';

export class GetReceivableAccount {
  constructor(private readonly queries: ReceivableAccountQueries) {}

  async execute(input: { customerId: number; accountId: number }): Promise<ReceivableAccountRecord> {
    const record = await this.queries.get(input.accountId);
    ownedBy(record?.account, input.customerId, 'receivable account', input.accountId);
    return record!;
  }
}

export class ListReceivableAccounts {
  constructor(private readonly queries: ReceivableAccountQueries) {}

  execute(input: { filter: ReceivableAccountListFilter; page: PageRequest }): Promise<Page<ReceivableAccountRecord>> {
    return this.queries.list(input.filter, input.page);
  }
}

/** GET /v1/clients/{id}/receivable-accounts and /v1/associates/{id}/receivable-accounts: the owner must be the caller's. */
export class ListReceivableAccountsOfOwner {
  constructor(
    private readonly clients: ClientQueries,
    private readonly associates: AssociateQueries,
    private readonly queries: ReceivableAccountQueries,
  ) {}

  async execute(input: {
    owner: 'client' | 'associate';
    ownerId: number;
    filter: ReceivableAccountListFilter;
    page: PageRequest;
  }): Promise<Page<ReceivableAccountRecord>> {
    const { customerId } = input.filter;
    if (input.owner === 'client') {
      ownedBy(await this.clients.get(input.ownerId), customerId, 'client', input.ownerId);
      return this.queries.list({ ...input.filter, clientId: input.ownerId }, input.page);
    }
    ownedBy(await this.associates.get(input.ownerId), customerId, 'associate', input.ownerId);
    return this.queries.list({ ...input.filter, associateId: input.ownerId }, input.page);
  }
}
