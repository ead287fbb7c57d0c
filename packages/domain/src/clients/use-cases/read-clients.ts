import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Client } from '../client';
import type { ClientListFilter, ClientQueries } from '../client-repository';

export class GetClient {
  constructor(private readonly queries: ClientQueries) {}

  async execute(input: { customerId: number; clientId: number }): Promise<Client> {
    return ownedBy(await this.queries.get(input.clientId), input.customerId, 'client', input.clientId);
  }
}

export class ListClients {
  constructor(private readonly queries: ClientQueries) {}

  execute(input: { filter: ClientListFilter; page: PageRequest }): Promise<Page<Client>> {
    return this.queries.list(input.filter, input.page);
  }
}
