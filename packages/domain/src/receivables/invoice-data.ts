import { DomainError } from '../shared/domain-error';

/** Referential tax voucher data; the service does not validate it against the tax authority. */
export interface InvoiceData {
  readonly version?: string;
  readonly pointOfSale?: string;
  readonly quote?: string;
  readonly rawDocumentType?: string;
  readonly recipientDocumentType?: string;
  readonly authCodeType?: string;
  readonly authCode?: string;
}

/** Members required once invoiceData is present (CONTRACT). */
export const REQUIRED_INVOICE_FIELDS = ['version', 'pointOfSale', 'rawDocumentType', 'authCodeType', 'authCode'] as const;

/** A required member of spaces alone is missing too: it would print as an invoice without it. */
export function assertInvoiceData(data: InvoiceData | null): void {
  if (data === null) return;
  const missingFields = REQUIRED_INVOICE_FIELDS.filter((field) => !data[field]?.trim());
  if (missingFields.length) {
    throw new DomainError('missing-invoice-fields', `invoiceData lacks ${missingFields.join(', ')}`, { missingFields });
  }
}

/** The same voucher data, member for member (whatever the members' order). */
export function sameInvoiceData(a: InvoiceData | null, b: InvoiceData | null): boolean {
  if (a === null || b === null) return a === b;
  const members = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof InvoiceData>);
  return [...members].every((member) => a[member] === b[member]);
}
