import { taxIdCheckDigit, type AssociateDetails, type ClientDetails } from '../src';

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
