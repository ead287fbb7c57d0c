import { problem, authErrors, param, idSchema, pathId, listParams, listOf, one } from './operation-parts';
import { timestamp, taxId, id } from './shared-schemas';

/** Current accounts, balances, movements and settlements (routes/money-routes.ts). */

const movementParams = [
  ...listParams.slice(0, 2),
  param('sort', '-movementDate (default) or movementDate'),
  param('fromDate', 'movementDate >= (ISO 8601)'),
  param('toDate', 'movementDate <= (inclusive)'),
  param('movementType', 'CREDIT or DEBIT'),
  param('operationType', 'DEPOSIT or SETTLEMENT'),
];

export const moneyPaths = {
  '/v1/current-accounts': {
    get: {
      operationId: 'listCurrentAccounts',
      summary: 'List current accounts (read-only)',
      parameters: [...listParams, param('accountType', 'MAIN or SUB'), param('status', 'ACTIVE or DISABLED')],
      responses: { '200': listOf('CurrentAccount'), ...authErrors },
    },
  },
  '/v1/current-accounts/{id}': {
    parameters: [pathId],
    get: { operationId: 'getCurrentAccount', summary: 'Get a current account', responses: { '200': one('CurrentAccount', 'Current account'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/current-accounts/{id}/balances': {
    parameters: [pathId],
    get: { operationId: 'getCurrentAccountBalances', summary: 'Balances: settled funds in the CVU wallet', responses: { '200': one('Balances', 'Balances'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/current-accounts/{id}/movements': {
    parameters: [pathId],
    get: { operationId: 'listCurrentAccountMovements', summary: 'Movements of a current account', parameters: movementParams, responses: { '200': listOf('Movement'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/receivable-accounts/{id}/movements': {
    parameters: [pathId],
    get: { operationId: 'listReceivableAccountMovements', summary: 'Movements of a receivable account', parameters: movementParams, responses: { '200': listOf('Movement'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/settlements': {
    get: {
      operationId: 'listSettlements',
      summary: 'Settlements (needs current-accounts:read)',
      parameters: [...listParams, param('receivableAccountId', 'Exact', idSchema)],
      responses: { '200': listOf('Settlement'), ...authErrors },
    },
  },
  '/v1/settlements/{id}': {
    parameters: [pathId],
    get: { operationId: 'getSettlement', summary: 'A settlement', responses: { '200': one('Settlement', 'Settlement'), '404': problem('resource-not-found'), ...authErrors } },
  },
} as const;

export const moneySchemas = {
  Movement: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'movementType', 'operationType', 'subtype', 'amount', 'currencyCode', 'counterParty', 'settlementId', 'movementDate'],
    properties: {
      id,
      receivableAccountId: { ...id, description: 'On receivable account movements' },
      currentAccountId: { ...id, description: 'On current account movements' },
      movementType: { enum: ['CREDIT', 'DEBIT'] },
      operationType: { enum: ['DEPOSIT', 'SETTLEMENT'] },
      subtype: { enum: ['SETTLEMENT_OUT', 'SETTLEMENT_IN', null] },
      amount: { type: 'number', exclusiveMinimum: 0 },
      currencyCode: { const: 'ARS' },
      counterParty: { type: ['object', 'null'], required: ['name', 'taxId'], properties: { name: { type: 'string' }, taxId } },
      settlementId: { type: ['integer', 'null'] },
      movementDate: timestamp,
    },
  },
  CurrentAccount: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'accountType', 'cvu', 'alias', 'currencyCode', 'status', 'lastSettlementDate', 'creationDate', 'modificationDate'],
    properties: {
      id,
      accountType: { enum: ['MAIN', 'SUB'] },
      cvu: { type: 'string', pattern: '^\\d{22}$' },
      alias: { type: 'string' },
      currencyCode: { const: 'ARS' },
      status: { enum: ['ACTIVE', 'DISABLED'] },
      lastSettlementDate: { type: ['string', 'null'], format: 'date-time' },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
  Balances: {
    type: 'object',
    additionalProperties: false,
    required: ['currentAccountId', 'currencyCode', 'totalBalance', 'balanceByWallet', 'asOf'],
    properties: {
      currentAccountId: id,
      currencyCode: { const: 'ARS' },
      totalBalance: { type: 'number', description: 'CVU + CASH + CVU_TAX' },
      balanceByWallet: {
        type: 'object',
        additionalProperties: false,
        required: ['CVU', 'CASH', 'CVU_TAX'],
        properties: { CVU: { type: 'number', description: 'Settled funds' }, CASH: { type: 'number' }, CVU_TAX: { type: 'number' } },
      },
      asOf: timestamp,
    },
  },
  Settlement: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'receivableAccountId', 'currentAccountId', 'amount', 'currencyCode', 'receivablesCount', 'receivableIds', 'settlementDate', 'creationDate'],
    properties: {
      id,
      receivableAccountId: id,
      currentAccountId: id,
      amount: { type: 'number', exclusiveMinimum: 0 },
      currencyCode: { const: 'ARS' },
      receivablesCount: { type: 'integer', minimum: 0 },
      receivableIds: { type: 'array', items: id },
      settlementDate: timestamp,
      creationDate: timestamp,
    },
  },
} as const;
