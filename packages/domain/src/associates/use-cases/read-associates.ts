import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Associate } from '../associate';
import type { AssociateListFilter, AssociateQueries } from '../associate-repository';
import type { ClientQueries } from '../../clients/client-repository';

export class GetAssociate {
  constructor(private readonly queries: AssociateQueries) {}

  async execute(input: { customerId: number; associateId: number }): Promise<Associate> {
    return ownedBy(await this.queries.get(input.associateId), input.customerId, 'associate', input.associateId);
  }
}

export class ListAssociates {
  constructor(private readonly queries: AssociateQueries) {}

  execute(input: { filter: AssociateListFilter; page: PageRequest }): Promise<Page<Associate>> {
    return this.queries.list(input.filter, input.page);
  }
}

/** GET /v1/clients/{id}/associates. */
export class ListAssociatesOfClient {
  constructor(
    private readonly clients: ClientQueries,
    private readonly queries: AssociateQueries,
  ) {}

  async execute(input: { customerId: number; clientId: number; page: PageRequest }): Promise<Page<Associate>> {
    ownedBy(await this.clients.get(input.clientId), input.customerId, 'client', input.clientId);
    return this.queries.listSharingAccountsWith(input.customerId, input.clientId, input.page);
  }
}
