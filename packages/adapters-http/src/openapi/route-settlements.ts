import { RECEIVABLE_TYPES } from '@rcs/domain';
import {
  created,
  idSchema,
  listOf,
  pageParams,
  one,
  operation,
  param,
  pathId,
  pathParam,
  pathResource,
  ref,
  withoutParam,
  type ResourceApi,
} from './operation-parts';
import { timestamp, id } from './shared-schemas';
import { receivableExample } from './receivables';

/** Route settlements (routes/route-settlement-routes.ts). */

const tag = 'Route settlements';
const read = 'route-settlements:read';
const routeCode = pathParam('routeCode', 'The route code');
const routeSettlement = {
  id: 4,
  routeCode: 'ROUTE-N-12',
  date: '2026-03-02',
  associateId: 7,
  receivableAccountIds: [31],
  summary: {
    receivablesCount: 2,
    totalAmount: 13800.5,
    byReceivableType: [
      { type: 'INVOICE', count: 1, amount: 15000.5 },
      { type: 'CREDIT_NOTE', count: 1, amount: -1200 },
    ],
  },
  creationDate: '2026-03-02T09:00:00.000Z',
};
/**
 * A route code names a route within its customer (another customer may use the same code): one the caller's
 * customer has not used is not found, whoever else has.
 */
const byCode = {
  'resource-not-found': "the caller's customer has no route settlement with this routeCode (codes are per customer: another customer's is not named here)",
} as const;

const routeSettlementFilters = [
  ...pageParams,
  param('associateId', 'Exact', idSchema),
  param('routeCode', 'Exact'),
  param('fromDate', 'On the settlement day, YYYY-MM-DD'),
  param('toDate', 'On the settlement day, YYYY-MM-DD'),
];

const paths = {
  '/v1/route-settlements': {
    get: operation({
      id: 'listRouteSettlements',
      tag,
      summary: 'List route settlements',
      scope: read,
      parameters: routeSettlementFilters,
      responses: { '200': listOf('RouteSettlement', routeSettlement) },
    }),
    post: operation({
      id: 'createRouteSettlement',
      tag,
      summary: 'Create a route settlement, or find it',
      description: '201 new; 200 the same (routeCode, date, associateId) again.',
      scope: 'route-settlements:write',
      key: 'optional',
      body: { schema: ref('RouteSettlementInput'), example: { routeCode: 'ROUTE-N-12', date: '2026-03-02', associateId: 7 } },
      responses: { '201': created('RouteSettlement', routeSettlement), '200': one('RouteSettlement', 'Existing', routeSettlement) },
      refusals: {
        'resource-not-found': 'no associate has the associateId',
        'resource-not-accessible': "the associate is another customer's",
        'route-code-already-used-for-date': 'the code has a settlement on this date for another associate',
        'route-code-already-used': 'the code belongs to another date',
        'associate-disabled': 'the associate is DISABLED',
      },
    }),
  },
  '/v1/route-settlements/{routeCode}': {
    parameters: [routeCode],
    get: operation({
      id: 'getRouteSettlement',
      tag,
      summary: 'Get a route settlement',
      description: 'With its summary: the count and net amount of its receivables, by type.',
      scope: read,
      responses: { '200': one('RouteSettlement', 'Route settlement', routeSettlement) },
      refusals: byCode,
    }),
  },
  '/v1/route-settlements/{routeCode}/receivables': {
    parameters: [routeCode],
    get: operation({
      id: 'listRouteSettlementReceivables',
      tag,
      summary: "List a route settlement's receivables",
      scope: 'receivables:read',
      parameters: pageParams,
      responses: { '200': listOf('Receivable', receivableExample) },
      refusals: byCode,
    }),
  },
  '/v1/associates/{id}/route-settlements': {
    parameters: [pathId],
    get: operation({
      id: 'listAssociateRouteSettlements',
      tag,
      summary: "List an associate's route settlements",
      description: "The route settlement list's filters, but associateId (the path names the associate; given, 400 validation).",
      scope: read,
      parameters: withoutParam(routeSettlementFilters, 'associateId'),
      responses: { '200': listOf('RouteSettlement', routeSettlement) },
      refusals: pathResource('associate'),
    }),
  },
};

const schemas = {
  RouteSettlementInput: {
    type: 'object',
    required: ['routeCode', 'date', 'associateId'],
    properties: {
      routeCode: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description:
          'No white space at either end, no control or invisible characters, no white space but the plain space, no /, ? or #, not . or .., in composed form (NFC) (400 validation)',
      },
      date: { type: 'string', format: 'date' },
      associateId: id,
    },
  },
  RouteSettlement: {
    type: 'object',
    required: ['id', 'routeCode', 'date', 'associateId', 'receivableAccountIds', 'summary', 'creationDate'],
    properties: {
      id,
      routeCode: { type: 'string' },
      date: { type: 'string', format: 'date' },
      associateId: id,
      receivableAccountIds: { type: 'array', items: id },
      summary: {
        type: 'object',
        required: ['receivablesCount', 'totalAmount', 'byReceivableType'],
        properties: {
          receivablesCount: { type: 'integer', minimum: 0 },
          totalAmount: { type: 'number', description: 'Net: positive types add, negative subtract (cancelled receivables left out)' },
          byReceivableType: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', 'count', 'amount'],
              properties: {
                type: { enum: RECEIVABLE_TYPES },
                count: { type: 'integer' },
                amount: { type: 'number', description: 'Negative for negative types' },
              },
            },
          },
        },
      },
      creationDate: timestamp,
    },
  },
} as const;

export const routeSettlementsApi: ResourceApi = {
  tags: [{ name: tag, description: "An associate's delivery route on one day: the receivables issued with its externalRoutingCode, summed by type" }],
  paths,
  schemas,
};
