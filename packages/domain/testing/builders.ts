import { composeCvu, Receivable, taxIdCheckDigit, Transfer, type AssociateDetails, type ClientDetails, type NewReceivable, type NewTransfer } from '../src';

/** A valid CUIT/CUIL for a prefix and an 8-digit body, bumping the body when no check digit exists. */
export function validTaxId(prefix: '20' | '23' | '27' | '30' | '33' = '30', body = 71234567): string {
  for (let candidate = body; ; candidate++) {
    const first10 = prefix + String(candidate).padStart(8, '0');
    const check = taxIdCheckDigit(first10);
    if (check < 10) return first10 + check;
  }
}

export function aClientDetails(overrides: Partial<ClientDetails> = {}): ClientDetails {
  return {
    businessName: 'Kiosco El Sol SRL',
    taxId: validTaxId('30', 71234567),
    documentType: 'CUIT',
    email: 'pagos@elsol.example',
    branchExternalCode: null,
    branchDescription: null,
    branchReferenceAddress: null,
    externalId: 'erp-1001',
    ...overrides,
  };
}

export function aBranch(code = 'SUC-01'): Pick<ClientDetails, 'branchExternalCode' | 'branchDescription' | 'branchReferenceAddress'> {
  return { branchExternalCode: code, branchDescription: `Branch ${code}`, branchReferenceAddress: 'Av. Corrientes 1234, CABA' };
}

export function anAssociateDetails(overrides: Partial<AssociateDetails> = {}): AssociateDetails {
  return {
    type: 'DRIVER',
    name: 'Juan',
    lastName: 'Pérez',
    taxId: validTaxId('20', 30111222),
    documentNumber: '30111222',
    email: 'juan.perez@example.com',
    phone: '+5491155550000',
    address: null,
    parentAssociateId: null,
    ...overrides,
  };
}

/** A valid new INVOICE of 100.00 on the given account; overrides may set any field, status and creationDate too. */
export function aReceivableDraft(
  on: { customerId: number; accountId: number; clientId: number | null },
  overrides: Partial<NewReceivable> = {},
): NewReceivable {
  return Receivable.draft(
    {
      customerId: on.customerId,
      receivableAccountId: on.accountId,
      clientId: on.clientId,
      associateId: null,
      amountMinor: 10_000n,
      currencyCode: 'ARS',
      receivableType: 'INVOICE',
      legalNumber: null,
      description: null,
      externalRoutingCode: null,
      issueDate: null,
      dueDate: null,
      receivableDate: '2026-03-01',
      parentReceivableId: null,
      attachmentUri: null,
      invoiceData: null,
      routeSettlementId: null,
      ...overrides,
    },
    overrides.status ?? 'PENDING',
    overrides.creationDate ?? new Date('2026-03-01T10:00:00.000Z'),
  );
}

/** A valid CBU (both check digits right) for outgoing transfers in tests. */
export const A_CBU = composeCvu('0110599', 12345678901n);

/**
 * A new OUTGOING_TRANSFER of 250.00 from `on.sourceAccountId` to A_CBU, PENDING (no approval control, no date);
 * overrides may set any field, status and creationDate too.
 */
export function aTransferDraft(on: { customerId: number; sourceAccountId: number; credentialId: number }, overrides: Partial<NewTransfer> = {}): NewTransfer {
  const creationDate = overrides.creationDate ?? new Date('2026-03-01T10:00:00.000Z');
  const draft = Transfer.draft(
    {
      customerId: on.customerId,
      type: 'OUTGOING_TRANSFER',
      sourceAccountId: on.sourceAccountId,
      amountMinor: 25_000n,
      currencyCode: 'ARS',
      destination: { cbuCvu: A_CBU, alias: null, accountId: null, counterParty: { name: 'Proveedor SA', taxId: validTaxId('30', 71234568) } },
      contactId: null,
      description: null,
      externalId: null,
      scheduledDate: null,
      createdByCredentialId: on.credentialId,
    },
    { approvalControl: false, today: '2026-03-01' },
    creationDate,
  );
  return { ...draft, ...overrides };
}
