import { ref, json, problem, authErrors, writeErrors, param, idSchema, pathId, idempotencyKey, listParams, listOf, one, created } from './operation-parts';
import { timestamp, nullableString, id, nullableDate, batchResponse } from './shared-schemas';

/** Receivables (routes/receivable-routes.ts). */

export const receivableTypes = ['INVOICE', 'DEBT', 'CREDIT_NOTE', 'MISSING_PRODUCT', 'RETURN_PRODUCT', 'BROKEN_PRODUCT', 'ADJUSTMENT', 'RETENTION'];
const invoiceData = {
  type: ['object', 'null'],
  description: 'Referential voucher data; once present, version, pointOfSale, rawDocumentType, authCodeType and authCode are required (422 missing-invoice-fields)',
  properties: Object.fromEntries(['version', 'pointOfSale', 'quote', 'rawDocumentType', 'recipientDocumentType', 'authCodeType', 'authCode'].map((k) => [k, { type: 'string' }])),
} as const;

export const receivablesPaths = {
  '/v1/receivables': {
    get: {
      operationId: 'listReceivables',
      summary: 'List receivables',
      parameters: [
        ...listParams,
        ...['receivableAccountId', 'clientId', 'associateId', 'parentReceivableId'].map((n) => param(n, 'Exact', idSchema)),
        param('status', 'PENDING, PAID, SETTLED, EXPIRED or DISABLED'),
        param('receivableType', 'One of the receivable types'),
        ...['fromDueDate', 'toDueDate', 'fromIssueDate', 'toIssueDate'].map((n) => param(n, 'YYYY-MM-DD, inclusive')),
        param('legalNumber', 'Exact'),
        param('externalRoutingCode', 'Exact'),
        param('minAmount', 'Decimal, inclusive'),
        param('maxAmount', 'Decimal, inclusive'),
      ],
      responses: { '200': listOf('Receivable'), ...authErrors },
    },
    post: {
      operationId: 'createReceivable',
      summary: 'Issue a receivable (status PENDING, or PAID for a child of a PAID parent)',
      parameters: [idempotencyKey(true)],
      requestBody: { required: true, content: json(ref('ReceivableInput')) },
      responses: {
        ...writeErrors,
        '201': created('Receivable'),
        '403': problem("resource-not-accessible: the account, parent, clientId or associateId is another customer's; insufficient-scope"),
        '404': problem('resource-not-found (account, parent, client, associate)'),
        '409': problem('duplicated-legal-number, idempotency conflicts'),
        '422': problem(
          'current-account-not-receivable-enabled, receivable-account-not-active, unmatching-receivable-currency-code, unmatching-receivable-client-id, receivable-account-associate-conflict, associate-disabled, missing-parent-receivable, parent-receivable-not-modifiable, parent-receivable-different-account, parent-receivable-invalid-type, child-receivables-exceed-parent-amount, missing-invoice-fields (missingFields)',
        ),
      },
    },
  },
  '/v1/receivables/batches': {
    post: {
      operationId: 'createReceivableBatch',
      summary: 'Issue up to 1000 receivables; each item stands alone, as if posted by itself',
      parameters: [idempotencyKey(true)],
      requestBody: { required: true, content: json(ref('ReceivableBatchRequest')) },
      responses: { '200': one('ReceivableBatchResponse', 'One result per item, in order'), ...writeErrors },
    },
  },
  '/v1/receivables/{id}': {
    parameters: [pathId],
    get: { operationId: 'getReceivable', summary: 'Get a receivable', responses: { '200': one('Receivable', 'Receivable'), '404': problem('resource-not-found'), ...authErrors } },
    put: {
      operationId: 'updateReceivable',
      summary: 'Edit description, legalNumber, externalRoutingCode, issueDate, dueDate, attachmentUri, invoiceData, and amount while PENDING',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('ReceivableEdit')) },
      responses: {
        ...writeErrors,
        '200': one('Receivable', 'Updated'),
        '404': problem('resource-not-found'),
        '409': problem('duplicated-legal-number, concurrent-modification, idempotency conflicts'),
        '422': problem('updating-receivable-final-status, invalid-status-transition (amount after PENDING), child-receivables-exceed-parent-amount, missing-invoice-fields'),
      },
    },
  },
  '/v1/receivables/{id}/status': {
    parameters: [pathId],
    patch: {
      operationId: 'changeReceivableStatus',
      summary: 'PAID, PENDING (undo) or DISABLED (cancel); active children follow their parent to PAID and back. SETTLED and EXPIRED are set only by the service (422 invalid-status-transition)',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('ReceivableStatusInput')) },
      responses: {
        '200': one('Receivable', 'Moved'),
        '404': problem('resource-not-found'),
        '422': problem('updating-receivable-final-status (the receivable is SETTLED or DISABLED, whatever is asked), invalid-status-transition, receivable-has-related-items'),
        ...writeErrors,
      },
    },
  },
  '/v1/receivable-accounts/{id}/receivables': {
    parameters: [pathId],
    get: { operationId: 'listReceivableAccountReceivables', summary: "The account's receivables (same filters as the receivable list)", responses: { '200': listOf('Receivable'), '404': problem('resource-not-found'), ...authErrors } },
  },
} as const;

export const receivablesSchemas = {
  ReceivableInput: {
    type: 'object',
    required: ['receivableAccountId', 'amount', 'currencyCode', 'receivableType'],
    properties: {
      receivableAccountId: id,
      amount: { type: ['number', 'string'], description: 'Positive, at most 2 decimals, at most 9999999999999.99 (a decimal string is accepted)' },
      currencyCode: { const: 'ARS' },
      receivableType: { enum: receivableTypes },
      clientId: { type: ['integer', 'null'], description: "Inherited from the account; if sent, must be the account's client" },
      associateId: { type: ['integer', 'null'], description: 'Bound to the account if it has none; another one than the account\'s is 422' },
      legalNumber: { ...nullableString, description: 'Unique per customer' },
      description: nullableString,
      externalRoutingCode: { ...nullableString, description: 'Groups the receivable under the route settlement of that code when the associate matches' },
      issueDate: nullableDate,
      dueDate: nullableDate,
      receivableDate: { ...nullableDate, description: 'Defaults to today in Buenos Aires' },
      parentReceivableId: { type: ['integer', 'null'], description: 'Required for negative types, refused for positive ones' },
      attachmentUri: nullableString,
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
      dueDate: nullableDate,
      attachmentUri: nullableString,
      invoiceData: invoiceData,
    },
  },
  ReceivableStatusInput: {
    type: 'object',
    required: ['status'],
    properties: { status: { enum: ['PAID', 'PENDING', 'DISABLED'], description: 'PAID from PENDING/EXPIRED; PENDING undoes PAID; DISABLED cancels' } },
  },
  Receivable: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'receivableAccountId', 'clientId', 'associateId', 'amount', 'currencyCode', 'receivableType', 'status', 'legalNumber', 'description',
      'externalRoutingCode', 'issueDate', 'dueDate', 'receivableDate', 'parentReceivableId', 'attachmentUri', 'invoiceData', 'creationDate', 'modificationDate'],
    properties: {
      id,
      receivableAccountId: id,
      clientId: { type: ['integer', 'null'] },
      associateId: { type: ['integer', 'null'] },
      amount: { type: 'number', exclusiveMinimum: 0 },
      currencyCode: { const: 'ARS' },
      receivableType: { enum: receivableTypes },
      status: { enum: ['PENDING', 'PAID', 'SETTLED', 'EXPIRED', 'DISABLED'] },
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
