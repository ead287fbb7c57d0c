import type { Client } from '@rcs/domain';

/** The wire shape of a client; lists exactly what is returned (no internal version, no customerId). */
export function clientResponse(client: Client) {
  const c = client.toSnapshot();
  return {
    id: c.id,
    businessName: c.businessName,
    taxId: c.taxId,
    documentType: c.documentType,
    email: c.email,
    branchExternalCode: c.branchExternalCode,
    branchDescription: c.branchDescription,
    branchReferenceAddress: c.branchReferenceAddress,
    externalId: c.externalId,
    creationDate: c.creationDate.toISOString(),
    modificationDate: c.modificationDate.toISOString(),
  };
}
