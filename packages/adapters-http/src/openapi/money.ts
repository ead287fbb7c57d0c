import { CURRENT_ACCOUNT_STATUSES, CURRENT_ACCOUNT_TYPES, MOVEMENT_SUBTYPES, MOVEMENT_TYPES, OPERATION_TYPES } from '@rcs/domain';
import { idSchema, listOf, listParams, pageParams, one, operation, param, pathId, pathResource, type ResourceApi } from './operation-parts';
import { timestamp, taxId, id } from './shared-schemas';

/** Current accounts, balances, movements and settlements (routes/money-routes.ts). */

const movementParams = [
  ...pageParams,
  param('sort', '-movementDate (default) or movementDate'),
  param('fromDate', 'movementDate >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999)'),
  param('toDate', 'movementDate <= (inclusive)'),
  param('movementType', 'CREDIT or DEBIT'),
  param('operationType', 'DEPOSIT, SETTLEMENT or TRANSFER'),
];

const read = 'current-accounts:read';
export const movementExample = {
  id: 9001,
  receivableAccountId: 31,
  movementType: 'CREDIT',
  operationType: 'DEPOSIT',
  subtype: null,
  amount: 15000.5,
  currencyCode: 'ARS',
  counterParty: { name: 'Almacén Don José', taxId: '20123456786' },
  settlementId: null,
  transferId: null,
  movementDate: '2026-03-05T12:30:00.000Z',
};
const currentAccount = {
  id: 2,
  accountType: 'MAIN',
  cvu: '0000003100012345678901',
  alias: 'norte.cobros.main',
  currencyCode: 'ARS',
  status: 'ACTIVE',
  lastSettlementDate: '2026-03-05T13:00:00.000Z',
  creationDate: '2026-01-10T10:00:00.000Z',
  modificationDate: '2026-03-05T13:00:00.000Z',
};
const settlement = {
  id: 88,
  receivableAccountId: 31,
  currentAccountId: 2,
  amount: 15000.5,
  currencyCode: 'ARS',
  receivablesCount: 1,
  receivableIds: [501],
  settlementDate: '2026-03-05T13:00:00.000Z',
  creationDate: '2026-03-05T13:00:00.000Z',
};
const settledIn = {
  id: 9002,
  currentAccountId: 2,
  movementType: 'CREDIT',
  operationType: 'SETTLEMENT',
  subtype: 'SETTLEMENT_IN',
  amount: 15000.5,
  currencyCode: 'ARS',
  counterParty: null,
  settlementId: 88,
  transferId: null,
  movementDate: '2026-03-05T13:00:00.000Z',
};

const paths = {
  '/v1/current-accounts': {
    get: operation({
      id: 'listCurrentAccounts',
      tag: 'Current accounts',
      summary: 'List current accounts',
      description: 'Read-only: the service opens them and settles collected money into them.',
      scope: read,
      parameters: [...listParams, param('accountType', 'MAIN or SUB'), param('status', 'ACTIVE or DISABLED')],
      responses: { '200': listOf('CurrentAccount', currentAccount) },
    }),
  },
  '/v1/current-accounts/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getCurrentAccount',
      tag: 'Current accounts',
      summary: 'Get a current account',
      scope: read,
      responses: { '200': one('CurrentAccount', 'Current account', currentAccount) },
      refusals: pathResource('current account'),
    }),
  },
  '/v1/current-accounts/{id}/balances': {
    parameters: [pathId],
    get: operation({
      id: 'getCurrentAccountBalances',
      tag: 'Current accounts',
      summary: "Get a current account's balances",
      description: 'Settled funds are in the CVU wallet.',
      scope: read,
      responses: {
        '200': one('Balances', 'Balances', {
          currentAccountId: 2,
          currencyCode: 'ARS',
          totalBalance: 15000.5,
          balanceByWallet: { CVU: 15000.5, CASH: 0, CVU_TAX: 0 },
          asOf: '2026-03-05T13:05:00.000Z',
        }),
      },
      refusals: pathResource('current account'),
    }),
  },
  '/v1/current-accounts/{id}/movements': {
    parameters: [pathId],
    get: operation({
      id: 'listCurrentAccountMovements',
      tag: 'Current accounts',
      summary: "List a current account's movements",
      scope: read,
      parameters: movementParams,
      responses: { '200': listOf('Movement', settledIn) },
      refusals: pathResource('current account'),
    }),
  },
  '/v1/receivable-accounts/{id}/movements': {
    parameters: [pathId],
    get: operation({
      id: 'listReceivableAccountMovements',
      tag: 'Receivable accounts',
      summary: "List a receivable account's movements",
      description: 'Money arrived (CREDIT DEPOSIT) and swept to the current account (DEBIT SETTLEMENT).',
      scope: 'receivable-accounts:read',
      parameters: movementParams,
      responses: { '200': listOf('Movement', movementExample) },
      refusals: pathResource('receivable account'),
    }),
  },
  '/v1/settlements': {
    get: operation({
      id: 'listSettlements',
      tag: 'Settlements',
      summary: 'List settlements',
      scope: read,
      parameters: [...listParams, param('receivableAccountId', 'Exact', idSchema)],
      responses: { '200': listOf('Settlement', settlement) },
    }),
  },
  '/v1/settlements/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getSettlement',
      tag: 'Settlements',
      summary: 'Get a settlement',
      scope: read,
      responses: { '200': one('Settlement', 'Settlement', settlement) },
      refusals: pathResource('settlement'),
    }),
  },
};

const schemas = {
  Movement: {
    type: 'object',
    required: ['id', 'movementType', 'operationType', 'subtype', 'amount', 'currencyCode', 'counterParty', 'settlementId', 'transferId', 'movementDate'],
    properties: {
      id,
      receivableAccountId: { ...id, description: 'On receivable account movements' },
      currentAccountId: { ...id, description: 'On current account movements' },
      movementType: { enum: MOVEMENT_TYPES },
      operationType: { enum: OPERATION_TYPES },
      subtype: { enum: [...MOVEMENT_SUBTYPES, null] },
      amount: { type: 'number', exclusiveMinimum: 0 },
      currencyCode: { const: 'ARS' },
      counterParty: { type: ['object', 'null'], required: ['name', 'taxId'], properties: { name: { type: 'string' }, taxId } },
      settlementId: { type: ['integer', 'null'] },
      transferId: {
        type: ['integer', 'null'],
        description: 'The transfer that moved the money (TRANSFER_OUT, TRANSFER_IN, TRANSFER_REVERSAL); null otherwise',
      },
      movementDate: timestamp,
    },
  },
  CurrentAccount: {
    type: 'object',
    required: ['id', 'accountType', 'cvu', 'alias', 'currencyCode', 'status', 'lastSettlementDate', 'creationDate', 'modificationDate'],
    properties: {
      id,
      accountType: { enum: CURRENT_ACCOUNT_TYPES },
      cvu: { type: 'string', pattern: '^\\d{22}$' },
      alias: { type: 'string' },
      currencyCode: { const: 'ARS' },
      status: { enum: CURRENT_ACCOUNT_STATUSES },
      lastSettlementDate: { type: ['string', 'null'], format: 'date-time' },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
  Balances: {
    type: 'object',
    required: ['currentAccountId', 'currencyCode', 'totalBalance', 'balanceByWallet', 'asOf'],
    properties: {
      currentAccountId: id,
      currencyCode: { const: 'ARS' },
      totalBalance: { type: 'number', description: 'CVU + CASH + CVU_TAX' },
      balanceByWallet: {
        type: 'object',
        required: ['CVU', 'CASH', 'CVU_TAX'],
        properties: { CVU: { type: 'number', description: 'Settled funds' }, CASH: { type: 'number' }, CVU_TAX: { type: 'number' } },
      },
      asOf: timestamp,
    },
  },
  Settlement: {
    type: 'object',
    required: [
      'id',
      'receivableAccountId',
      'currentAccountId',
      'amount',
      'currencyCode',
      'receivablesCount',
      'receivableIds',
      'settlementDate',
      'creationDate',
    ],
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

export const moneyApi: ResourceApi = {
  tags: [
    { name: 'Current accounts', description: "The customer's own accounts (MAIN and SUB) that collected money is settled into, their balances and movements" },
    { name: 'Settlements', description: "Each sweep of a receivable account's collected money into a current account, with the receivables it settled" },
  ],
  paths,
  schemas,
};

/** The example the webhooks section's settlement.completed payload carries. */
export { settlement as settlementExample };
