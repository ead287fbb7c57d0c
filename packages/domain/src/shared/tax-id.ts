import { ValidationError } from './domain-error';

export const DOCUMENT_TYPES = ['CUIT', 'CUIL'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const CHECK_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
/** Prefixes in use: 20/23/24/27 people, 30/33/34 companies; 25/26 are older person prefixes still valid. */
const PERSON_PREFIXES = new Set(['20', '23', '24', '25', '26', '27']);
const COMPANY_PREFIXES = new Set(['30', '33', '34']);

/** What a tax id may be written with between its digits and is dropped: dashes and plain spaces (not tabs or line breaks). */
export const withoutTaxIdSeparators = (text: string): string => text.replace(/[ -]/g, '');

/** 11 digits once `withoutSeparators` has dropped what may stand between them; 400 validation naming `field` otherwise. */
function elevenDigits(input: unknown, field: string, withoutSeparators: (text: string) => string): string {
  if (typeof input !== 'string') throw ValidationError.of(field, 'must be a string of 11 digits');
  const digits = withoutSeparators(input);
  if (!/^\d{11}$/.test(digits)) throw ValidationError.of(field, 'must have 11 digits (dashes and spaces allowed)');
  return digits;
}

/**
 * Canonical Argentine tax id (CUIT/CUIL): 11 digits, check digit verified. Dashes and spaces are accepted on
 * input and dropped.
 */
export function parseTaxId(input: unknown, field = 'taxId'): string {
  const digits = elevenDigits(input, field, withoutTaxIdSeparators);
  const prefix = digits.slice(0, 2);
  if (!PERSON_PREFIXES.has(prefix) && !COMPANY_PREFIXES.has(prefix)) {
    throw ValidationError.of(field, `unknown CUIT/CUIL prefix ${prefix}`);
  }
  if (taxIdCheckDigit(digits.slice(0, 10)) !== Number(digits[10])) {
    throw ValidationError.of(field, 'check digit does not match');
  }
  return digits;
}

/**
 * A tax id as a third party reports it (the banking provider, of a payer whose money it already took): 11 digits,
 * any white space and dashes dropped, its prefix and check digit not judged. Refusing the notification over them
 * would leave money at the bank that the ledger never shows (foreign payers' prefixes, such as 55, are not in
 * parseTaxId's list).
 */
export function parseReportedTaxId(input: unknown, field = 'taxId'): string {
  return elevenDigits(input, field, (text) => text.replace(/[\s-]/g, ''));
}

/** A CUIL is a person's number: company prefixes are CUIT only. */
export function assertDocumentTypeFits(taxId: string, documentType: DocumentType, field = 'taxId'): void {
  if (documentType === 'CUIL' && COMPANY_PREFIXES.has(taxId.slice(0, 2))) {
    throw ValidationError.of(field, 'a CUIL cannot have a company prefix (30, 33, 34)');
  }
}

/** Check digit of the first 10 digits; 10 means no valid number exists with that body. */
export function taxIdCheckDigit(body: string): number {
  const sum = CHECK_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(body[i]), 0);
  const check = 11 - (sum % 11);
  return check === 11 ? 0 : check;
}
