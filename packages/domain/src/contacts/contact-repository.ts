import { ownedBy } from '../shared/owned';
import type { Page, PageRequest } from '../shared/page';
import type { Contact, NewContact } from './contact';

/** Transactional access to recipients. Inserts and updates throw DuplicatedContactError on a taken CBU/CVU or alias. */
export interface ContactRepository {
  get(id: number): Promise<Contact | undefined>;
  /** Reads and locks the row until the transaction ends, so concurrent edits and deletes serialise. */
  getForUpdate(id: number): Promise<Contact | undefined>;
  insert(contact: NewContact): Promise<Contact>;
  /** Saves a changed recipient if nobody changed it since it was read (version check), else concurrent-modification. */
  update(contact: Contact): Promise<void>;
  /** Removes it for good: its CBU/CVU and alias are free again; transfers keep the destination they copied. */
  delete(contact: Contact): Promise<void>;
}

/**
 * The caller's recipient by id, for use cases that take a contactId (a transfer's destination): 404 when it does
 * not exist, 403 resource-not-accessible when it is another customer's.
 */
export async function findOwnedContact(contacts: Pick<ContactRepository, 'get'>, customerId: number, contactId: number): Promise<Contact> {
  return ownedBy(await contacts.get(contactId), customerId, 'contact', contactId);
}

export interface ContactListFilter {
  readonly customerId: number;
  readonly taxId?: string;
  /** Matches in any letter case. */
  readonly alias?: string;
}

/** Read side: list pages straight from storage, newest first. */
export interface ContactQueries {
  get(id: number): Promise<Contact | undefined>;
  list(filter: ContactListFilter, page: PageRequest): Promise<Page<Contact>>;
}
