import type { Associate } from '@rcs/domain';

export function associateResponse(associate: Associate) {
  const a = associate.toSnapshot();
  return {
    id: a.id,
    type: a.type,
    name: a.name,
    lastName: a.lastName,
    taxId: a.taxId,
    documentNumber: a.documentNumber,
    email: a.email,
    phone: a.phone,
    address: a.address,
    parentAssociateId: a.parentAssociateId,
    status: a.status,
    creationDate: a.creationDate.toISOString(),
    modificationDate: a.modificationDate.toISOString(),
  };
}
