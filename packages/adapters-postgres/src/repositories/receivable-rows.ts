import { POSITIVE_TYPES, Receivable, type InvoiceData, type NewReceivable, type ReceivableSnapshot } from '@rcs/domain';

export interface ReceivableRow {
  id: string;
  customer_id: string;
  receivable_account_id: string;
  client_id: string | null;
  associate_id: string | null;
  amount_minor: string;
  currency_code: ReceivableSnapshot['currencyCode'];
  receivable_type: ReceivableSnapshot['receivableType'];
  status: ReceivableSnapshot['status'];
  legal_number: string | null;
  description: string | null;
  external_routing_code: string | null;
  issue_date: string | null;
  due_date: string | null;
  receivable_date: string;
  parent_receivable_id: string | null;
  attachment_uri: string | null;
  invoice_data: InvoiceData | null;
  route_settlement_id: string | null;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

const optionalId = (value: string | null) => (value === null ? null : Number(value));

export const toReceivable = (row: ReceivableRow): Receivable =>
  Receivable.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    receivableAccountId: Number(row.receivable_account_id),
    clientId: optionalId(row.client_id),
    associateId: optionalId(row.associate_id),
    amountMinor: BigInt(row.amount_minor),
    currencyCode: row.currency_code,
    receivableType: row.receivable_type,
    status: row.status,
    legalNumber: row.legal_number,
    description: row.description,
    externalRoutingCode: row.external_routing_code,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    receivableDate: row.receivable_date,
    parentReceivableId: optionalId(row.parent_receivable_id),
    attachmentUri: row.attachment_uri,
    invoiceData: row.invoice_data,
    routeSettlementId: optionalId(row.route_settlement_id),
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

export const toReceivableRow = (r: NewReceivable & Partial<Pick<ReceivableSnapshot, 'modificationDate' | 'version'>>) => ({
  customer_id: r.customerId,
  receivable_account_id: r.receivableAccountId,
  client_id: r.clientId,
  associate_id: r.associateId,
  // pg sends a bigint's decimal text: exact at any size.
  amount_minor: r.amountMinor.toString(),
  currency_code: r.currencyCode,
  receivable_type: r.receivableType,
  status: r.status,
  legal_number: r.legalNumber,
  description: r.description,
  external_routing_code: r.externalRoutingCode,
  issue_date: r.issueDate,
  due_date: r.dueDate,
  receivable_date: r.receivableDate,
  parent_receivable_id: r.parentReceivableId,
  attachment_uri: r.attachmentUri,
  invoice_data: r.invoiceData === null ? null : JSON.stringify(r.invoiceData),
  route_settlement_id: r.routeSettlementId,
  creation_date: r.creationDate,
  modification_date: r.modificationDate ?? r.creationDate,
  version: r.version ?? 1,
});

/** The domain's positive types (those that add, and expire) as a SQL list of literals. */
const POSITIVE_TYPES_SQL = POSITIVE_TYPES.map((type) => `'${type}'`).join(', ');

/** SQL for a receivable's amount signed by its type (positive types add, the rest subtract), as the domain says. */
export function signedAmountSql(table: string): string {
  return `CASE WHEN ${table}.receivable_type IN (${POSITIVE_TYPES_SQL}) THEN ${table}.amount_minor ELSE -${table}.amount_minor END`;
}
