import type { Contact } from '@rcs/domain';

/** The wire shape of a recipient; lists exactly what is returned (no internal version, no customerId). */
export function contactResponse(contact: Contact) {
  const c = contact.toSnapshot();
  return {
    id: c.id,
    name: c.name,
    taxId: c.taxId,
    cbuCvu: c.cbuCvu,
    alias: c.alias,
    entity: c.entity,
    creationDate: c.creationDate.toISOString(),
    modificationDate: c.modificationDate.toISOString(),
  };
}
