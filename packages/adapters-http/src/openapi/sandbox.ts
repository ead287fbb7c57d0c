import { ref, json, problem, authErrors, writeErrors, idempotencyKey, one } from './operation-parts';
import { id, nullableDate } from './shared-schemas';

/** Sandbox helpers (routes/sandbox-routes.ts). */

export const sandboxPaths = {
  '/v1/sandbox/collections': {
    post: {
      operationId: 'createSandboxCollection',
      summary: "Sandbox only: simulate money arriving on one of the caller's ACTIVE receivable accounts (CREDIT/DEPOSIT movement, event movement.created). Needs receivable-accounts:write",
      security: [{ bearer: ['receivable-accounts:write'] }],
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('CollectionInput')) },
      responses: {
        ...writeErrors,
        '201': one('Movement', 'The movement'),
        '403': problem("insufficient-scope (receivable-accounts:write); resource-not-accessible: another customer's account"),
        '404': problem('resource-not-found; in production the whole path answers 404'),
        '422': problem('receivable-account-not-active, unmatching-movement-currency-code, current-account-not-receivable-enabled'),
      },
    },
  },
  '/v1/sandbox/settlement-runs': {
    post: {
      operationId: 'runSandboxSettlement',
      summary: "Sandbox only: run the settlement cycle now for the caller's customer alone (other customers' accounts wait for the scheduled cycle). Needs receivables:write",
      security: [{ bearer: ['receivables:write'] }],
      responses: {
        ...authErrors,
        '201': one('SettlementRun', "What the cycle did for the caller's customer"),
        '403': problem('insufficient-scope (receivables:write)'),
        '404': problem('in production the whole path answers 404'),
      },
    },
  },
  '/v1/sandbox/expiration-runs': {
    post: {
      operationId: 'runSandboxExpiration',
      summary:
        "Sandbox only: run the daily expiry job now for the caller's customer alone, as if on `date`: its PENDING receivables of positive types due before that day become EXPIRED (event receivable.expired each). Needs receivables:write",
      security: [{ bearer: ['receivables:write'] }],
      parameters: [idempotencyKey(false)],
      requestBody: { required: false, content: json(ref('ExpirationRunInput')) },
      responses: {
        ...writeErrors,
        '201': one('ExpirationRun', 'How many receivables the run expired'),
        '403': problem('insufficient-scope (receivables:write)'),
        '404': problem('in production the whole path answers 404'),
      },
    },
  },
} as const;

export const sandboxSchemas = {
  CollectionInput: {
    type: 'object',
    required: ['receivableAccountId', 'amount', 'counterParty'],
    properties: {
      receivableAccountId: id,
      amount: { type: ['number', 'string'] },
      currencyCode: { const: 'ARS' },
      counterParty: { type: 'object', required: ['name', 'taxId'], properties: { name: { type: 'string' }, taxId: { type: 'string' } } },
    },
  },
  SettlementRun: {
    type: 'object',
    additionalProperties: false,
    required: ['settlements', 'settledReceivables', 'settledAmount'],
    properties: { settlements: { type: 'integer' }, settledReceivables: { type: 'integer' }, settledAmount: { type: 'number' } },
  },
  ExpirationRunInput: {
    type: 'object',
    properties: { date: { ...nullableDate, description: 'The Buenos Aires calendar day to run as of (YYYY-MM-DD); absent or null: today there' } },
  },
  ExpirationRun: {
    type: 'object',
    additionalProperties: false,
    required: ['expiredReceivables'],
    properties: { expiredReceivables: { type: 'integer', minimum: 0, description: 'Receivables the run turned EXPIRED' } },
  },
} as const;
