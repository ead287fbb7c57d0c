import { RECEIVABLE_STATUSES, RECEIVABLE_TYPES, REQUESTABLE_STATUSES } from '@rcs/domain';
import { timestamp, nullableString, id, nullableDate, batchResponse, KEY_TEXT_RULE } from './shared-schemas';

/** The receivables' schemas (openapi/receivables.ts holds their operations). */

const attachmentUri = {
  type: ['string', 'null'],
  format: 'uri',
  maxLength: 2048,
  description: 'An absolute http:// or https:// URL, of any host (400 validation otherwise)',
};
const dueNotBeforeIssue = { ...nullableDate, description: 'Not before issueDate (400 validation); the same day is allowed' };

const invoiceData = {
  type: ['object', 'null'],
  description:
    'Referential voucher data; once present, version, pointOfSale, rawDocumentType, authCodeType and authCode are required (422 missing-invoice-fields)',
  properties: Object.fromEntries(
    ['version', 'pointOfSale', 'quote', 'rawDocumentType', 'recipientDocumentType', 'authCodeType', 'authCode'].map((k) => [k, { type: 'string' }]),
  ),
} as const;

export const receivableSchemas = {
  ReceivableInput: {
    type: 'object',
    required: ['receivableAccountId', 'amount', 'currencyCode', 'receivableType'],
    properties: {
      receivableAccountId: id,
      amount: { type: ['number', 'string'], description: 'Positive, at most 2 decimals, at most 9999999999999.99 (a decimal string is accepted)' },
      currencyCode: { const: 'ARS' },
      receivableType: { enum: RECEIVABLE_TYPES },
      clientId: { type: ['integer', 'null'], description: "Inherited from the account; if sent, must be the account's client" },
      associateId: { type: ['integer', 'null'], description: "Bound to the account if it has none; another one than the account's is 422" },
      legalNumber: {
        ...nullableString,
        description: `Unique per customer; ${KEY_TEXT_RULE}`,
      },
      description: nullableString,
      externalRoutingCode: {
        ...nullableString,
        description:
          'Groups the receivable under the route settlement of that code when the associate matches; the rules of a routeCode apply (no white space at either end, no control or invisible characters, no white space but the plain space, no /, ? or #, not . or ..); editing it regroups the receivable',
      },
      issueDate: nullableDate,
      dueDate: dueNotBeforeIssue,
      receivableDate: { ...nullableDate, description: 'Defaults to today in Buenos Aires' },
      parentReceivableId: { type: ['integer', 'null'], description: 'Required for negative types, refused for positive ones' },
      attachmentUri,
      invoiceData: invoiceData,
    },
  },
  ReceivableEdit: {
    type: 'object',
    description: 'Editable fields; amount only while PENDING. Identity fields may be sent unchanged (a change is 400 validation).',
    properties: {
      amount: { type: ['number', 'string'] },
      legalNumber: nullableString,
      description: nullableString,
      externalRoutingCode: nullableString,
      issueDate: nullableDate,
      dueDate: dueNotBeforeIssue,
      attachmentUri,
      invoiceData: invoiceData,
    },
  },
  ReceivableStatusInput: {
    type: 'object',
    required: ['status'],
    properties: { status: { enum: REQUESTABLE_STATUSES, description: 'PAID from PENDING/EXPIRED; PENDING undoes PAID; DISABLED cancels' } },
  },
  Receivable: {
    type: 'object',
    required: [
      'id',
      'receivableAccountId',
      'clientId',
      'associateId',
      'amount',
      'currencyCode',
      'receivableType',
      'status',
      'legalNumber',
      'description',
      'externalRoutingCode',
      'issueDate',
      'dueDate',
      'receivableDate',
      'parentReceivableId',
      'attachmentUri',
      'invoiceData',
      'creationDate',
      'modificationDate',
    ],
    properties: {
      id,
      receivableAccountId: id,
      clientId: { type: ['integer', 'null'] },
      associateId: { type: ['integer', 'null'] },
      amount: { type: 'number', exclusiveMinimum: 0 },
      currencyCode: { const: 'ARS' },
      receivableType: { enum: RECEIVABLE_TYPES },
      status: { enum: RECEIVABLE_STATUSES },
      legalNumber: nullableString,
      description: nullableString,
      externalRoutingCode: nullableString,
      issueDate: nullableDate,
      dueDate: nullableDate,
      receivableDate: { type: 'string', format: 'date' },
      parentReceivableId: { type: ['integer', 'null'] },
      attachmentUri: nullableString,
      invoiceData: invoiceData,
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
  ReceivableBatchRequest: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/ReceivableInput' } } },
  },
  ReceivableBatchResponse: batchResponse('receivable', 'Receivable'),
} as const;
