import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Contact } from '../contact';
import type { ContactListFilter, ContactQueries } from '../contact-repository';

export class GetContact {
  constructor(private readonly queries: ContactQueries) {}

  async execute(input: { customerId: number; contactId: number }): Promise<Contact> {
    return ownedBy(await this.queries.get(input.contactId), input.customerId, 'contact', input.contactId);
  }
}

export class ListContacts {
  constructor(private readonly queries: ContactQueries) {}

  execute(input: { filter: ContactListFilter; page: PageRequest }): Promise<Page<Contact>> {
    return this.queries.list(input.filter, input.page);
  }
}
