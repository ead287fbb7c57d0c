import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Associate } from '../associate';
import type { AssociateListFilter, AssociateQueries } from '../associate-repository';

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
