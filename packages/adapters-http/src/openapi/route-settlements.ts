import { ref, json, problem, authErrors, writeErrors, param, pathParam, idSchema, pathId, idempotencyKey, listParams, listOf, one, created } from './operation-parts';
import { timestamp, id } from './shared-schemas';
import { receivableTypes } from './receivables';

/** Route settlements (routes/route-settlement-routes.ts). */

export const routeSettlementsPaths = {
  '/v1/route-settlements': {
    get: {
      operationId: 'listRouteSettlements',
      summary: 'List route settlements',
      parameters: [...listParams.slice(0, 2), param('associateId', 'Exact', idSchema), param('routeCode', 'Exact'), param('fromDate', 'On the settlement day, YYYY-MM-DD'), param('toDate', 'On the settlement day, YYYY-MM-DD')],
      responses: { '200': listOf('RouteSettlement'), ...authErrors },
    },
    post: {
      operationId: 'createRouteSettlement',
      summary: 'Create or update: 201 new, 200 the same (routeCode, date, associateId) again',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('RouteSettlementInput')) },
      responses: {
        ...writeErrors,
        '201': created('RouteSettlement'),
        '200': one('RouteSettlement', 'Existing'),
        '404': problem('resource-not-found (associate)'),
        '409': problem('route-code-already-used: same code and date, another associate'),
        '422': problem('route-code-already-used: the code belongs to another date; associate-disabled'),
      },
    },
  },
  '/v1/route-settlements/{routeCode}': {
    parameters: [pathParam('routeCode', 'The route code')],
    get: { operationId: 'getRouteSettlement', summary: 'A route settlement with its summary', responses: { '200': one('RouteSettlement', 'Route settlement'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/route-settlements/{routeCode}/receivables': {
    parameters: [pathParam('routeCode', 'The route code')],
    get: { operationId: 'listRouteSettlementReceivables', summary: 'The receivables grouped under it', parameters: listParams.slice(0, 2), responses: { '200': listOf('Receivable'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/associates/{id}/route-settlements': {
    parameters: [pathId],
    get: { operationId: 'listAssociateRouteSettlements', summary: "The associate's route settlements", responses: { '200': listOf('RouteSettlement'), '404': problem('resource-not-found'), ...authErrors } },
  },
} as const;

export const routeSettlementsSchemas = {
  RouteSettlementInput: {
    type: 'object',
    required: ['routeCode', 'date', 'associateId'],
    properties: { routeCode: { type: 'string', maxLength: 64 }, date: { type: 'string', format: 'date' }, associateId: id },
  },
  RouteSettlement: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'routeCode', 'date', 'associateId', 'receivableAccountIds', 'summary', 'creationDate'],
    properties: {
      id,
      routeCode: { type: 'string' },
      date: { type: 'string', format: 'date' },
      associateId: id,
      receivableAccountIds: { type: 'array', items: id },
      summary: {
        type: 'object',
        additionalProperties: false,
        required: ['receivablesCount', 'totalAmount', 'byReceivableType'],
        properties: {
          receivablesCount: { type: 'integer', minimum: 0 },
          totalAmount: { type: 'number', description: 'Net: positive types add, negative subtract (cancelled receivables left out)' },
          byReceivableType: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['type', 'count', 'amount'],
              properties: { type: { enum: receivableTypes }, count: { type: 'integer' }, amount: { type: 'number', description: 'Negative for negative types' } },
            },
          },
        },
      },
      creationDate: timestamp,
    },
  },
} as const;
