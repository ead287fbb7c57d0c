import { problemOf } from '../middleware/problem';
import { created, idSchema, listOf, listParams, one, operation, param, pathId, pathResource, ref, withoutParam, type ResourceApi } from './operation-parts';
import { receivableSchemas } from './receivable-schemas';

/** Receivables (routes/receivable-routes.ts). */

const tag = 'Receivables';
const read = 'receivables:read';
const write = 'receivables:write';
const receivableInput = {
  receivableAccountId: 31,
  amount: '15000.50',
  currencyCode: 'ARS',
  receivableType: 'INVOICE',
  legalNumber: 'A-0001-00001234',
  description: 'March deliveries',
  externalRoutingCode: 'ROUTE-N-12',
  issueDate: '2026-03-01',
  dueDate: '2026-03-31',
};
export const receivableExample = {
  id: 501,
  receivableAccountId: 31,
  clientId: 12,
  associateId: 7,
  amount: 15000.5,
  currencyCode: 'ARS',
  receivableType: 'INVOICE',
  status: 'PENDING',
  legalNumber: 'A-0001-00001234',
  description: 'March deliveries',
  externalRoutingCode: 'ROUTE-N-12',
  issueDate: '2026-03-01',
  dueDate: '2026-03-31',
  receivableDate: '2026-03-02',
  parentReceivableId: null,
  attachmentUri: null,
  invoiceData: null,
  creationDate: '2026-03-02T15:10:00.000Z',
  modificationDate: '2026-03-02T15:10:00.000Z',
};
const creditNote = {
  receivableAccountId: 31,
  amount: 1200,
  currencyCode: 'ARS',
  receivableType: 'CREDIT_NOTE',
  parentReceivableId: 501,
  description: 'Two boxes returned',
};
const issueRefusals = {
  'resource-not-found': 'no account, parent, client or associate has the id given',
  'resource-not-accessible': "the account, parent, clientId or associateId is another customer's",
  'duplicated-legal-number': 'another receivable of the customer has this legalNumber',
  'current-account-not-receivable-enabled': "the customer's current account does not take collections",
  'receivable-account-not-active': 'the account is not ACTIVE',
  'unmatching-receivable-currency-code': "currencyCode is not the account's",
  'unmatching-receivable-client-id': "clientId is not the account's client",
  'receivable-account-associate-conflict': "associateId is not the account's associate",
  'owner-type-not-supported': "binding associateId to the account would make it CLIENT_AND_ASSOCIATE, which the customer's account template does not take",
  'associate-disabled': 'the associate is DISABLED',
  'receivable-account-already-exists':
    'binding associateId to the account would give its owners a second account in this currency (existingResourceId names it)',
  'missing-parent-receivable': 'a negative type (credit note, return...) without parentReceivableId',
  'parent-receivable-not-modifiable': 'the parent is not PENDING or PAID',
  'parent-receivable-different-account': 'the parent is on another account',
  'parent-receivable-invalid-type': 'the parent is of a negative type, or a positive type names a parent',
  'child-receivables-exceed-parent-amount': "the children would add up to more than the parent's amount",
  'missing-invoice-fields': 'invoiceData lacks a required member (missingFields lists them)',
} as const;

const receivableListFilters = [
  ...listParams,
  ...['receivableAccountId', 'clientId', 'associateId', 'parentReceivableId'].map((n) => param(n, 'Exact', idSchema)),
  param('status', 'PENDING, PAID, SETTLED, EXPIRED or DISABLED'),
  param('receivableType', 'One of the receivable types'),
  ...['fromDueDate', 'toDueDate', 'fromIssueDate', 'toIssueDate'].map((n) => param(n, 'YYYY-MM-DD, inclusive')),
  param('legalNumber', 'Exact'),
  param('externalRoutingCode', 'Exact'),
  param('minAmount', 'Decimal, inclusive'),
  param('maxAmount', 'Decimal, inclusive'),
];

const paths = {
  '/v1/receivables': {
    get: operation({
      id: 'listReceivables',
      tag,
      summary: 'List receivables',
      scope: read,
      parameters: receivableListFilters,
      responses: { '200': listOf('Receivable', receivableExample) },
    }),
    post: operation({
      id: 'createReceivable',
      tag,
      summary: 'Issue a receivable',
      description:
        'Status PENDING, or PAID for a child of a PAID parent. A negative type (CREDIT_NOTE, MISSING_PRODUCT, ADJUSTMENT, RETENTION, ' +
        'RETURN_PRODUCT, BROKEN_PRODUCT) names its parent and lowers what is owed on it.',
      scope: write,
      key: 'required',
      body: { schema: ref('ReceivableInput'), example: receivableInput },
      responses: { '201': created('Receivable', receivableExample) },
      refusals: issueRefusals,
    }),
  },
  '/v1/receivables/batches': {
    post: operation({
      id: 'createReceivableBatch',
      tag,
      summary: 'Issue up to 1000 receivables',
      description:
        'Each item stands alone, as if posted by itself (a malformed item is its own 400 validation): its result carries the status it would have had and the receivable or the Problem.',
      scope: write,
      key: 'required',
      body: { schema: ref('ReceivableBatchRequest'), example: { items: [receivableInput, creditNote] } },
      responses: {
        '200': one('ReceivableBatchResponse', 'One result per item, in order', {
          results: [
            { index: 0, status: 201, receivable: receivableExample },
            { index: 1, status: 404, error: problemOf('resource-not-found', 'receivable 501 not found') },
          ],
        }),
      },
    }),
  },
  '/v1/receivables/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getReceivable',
      tag,
      summary: 'Get a receivable',
      scope: read,
      responses: { '200': one('Receivable', 'Receivable', receivableExample) },
      refusals: pathResource('receivable'),
    }),
    put: operation({
      id: 'updateReceivable',
      tag,
      summary: 'Edit a receivable',
      description: 'description, legalNumber, externalRoutingCode, issueDate, dueDate, attachmentUri, invoiceData, and amount while PENDING.',
      scope: write,
      key: 'optional',
      body: { schema: ref('ReceivableEdit'), example: { description: 'March deliveries, second route', dueDate: '2026-04-15' } },
      responses: { '200': one('Receivable', 'Updated', { ...receivableExample, description: 'March deliveries, second route', dueDate: '2026-04-15' }) },
      refusals: {
        ...pathResource('receivable'),
        'duplicated-legal-number': 'another receivable of the customer has this legalNumber',
        'updating-receivable-final-status': 'the receivable is SETTLED or DISABLED',
        'invalid-status-transition': 'amount changes after PENDING',
        'child-receivables-exceed-parent-amount': "the children would add up to more than the parent's amount",
        'missing-invoice-fields': 'invoiceData lacks a required member (missingFields lists them)',
      },
    }),
  },
  '/v1/receivables/{id}/status': {
    parameters: [pathId],
    patch: operation({
      id: 'changeReceivableStatus',
      tag,
      summary: 'Mark paid, undo, or cancel a receivable',
      description:
        'PAID, PENDING (undo) or DISABLED (cancel); active children follow their parent to PAID and back. SETTLED and ' +
        'EXPIRED are set only by the service (422 invalid-status-transition).',
      scope: write,
      key: 'optional',
      body: { schema: ref('ReceivableStatusInput'), example: { status: 'PAID' } },
      responses: { '200': one('Receivable', 'Moved', { ...receivableExample, status: 'PAID' }) },
      refusals: {
        ...pathResource('receivable'),
        'updating-receivable-final-status': 'the receivable is SETTLED or DISABLED, whatever is asked',
        'invalid-status-transition': 'the move is not allowed from the current status',
        'receivable-has-related-items': 'cancelling a receivable that has active children',
      },
    }),
  },
  '/v1/receivable-accounts/{id}/receivables': {
    parameters: [pathId],
    get: operation({
      id: 'listReceivableAccountReceivables',
      tag,
      summary: "List an account's receivables",
      description: "The receivable list's filters, but receivableAccountId (the path names the account; given, 400 validation).",
      scope: read,
      parameters: withoutParam(receivableListFilters, 'receivableAccountId'),
      responses: { '200': listOf('Receivable', receivableExample) },
      refusals: pathResource('receivable account'),
    }),
  },
};

export const receivablesApi: ResourceApi = {
  tags: [{ name: tag, description: 'What an end client owes on a receivable account: invoices and debts, and the credit notes and returns that lower them' }],
  paths,
  schemas: receivableSchemas,
};
