import { one, operation, ref, type ResourceApi } from './operation-parts';
import { id, nullableDate, taxIdInput } from './shared-schemas';
import { movementExample } from './money';

/** Sandbox helpers (routes/sandbox-routes.ts). */

const tag = 'Sandbox';
const onlyInSandbox = 'Served in sandbox mode only (APP_MODE=sandbox); in production the whole path answers 404 resource-not-found.';

const paths = {
  '/v1/sandbox/collections': {
    post: operation({
      id: 'createSandboxCollection',
      tag,
      summary: 'Simulate money arriving on a receivable account',
      description: `Money arrives on one of the caller's ACTIVE receivable accounts: a CREDIT DEPOSIT movement, event movement.created. ${onlyInSandbox}`,
      scope: 'receivable-accounts:write',
      key: 'optional',
      body: {
        schema: ref('CollectionInput'),
        example: { receivableAccountId: 31, amount: '15000.50', currencyCode: 'ARS', counterParty: { name: 'Almacén Don José', taxId: '20-12345678-6' } },
      },
      responses: { '201': one('Movement', 'The movement', movementExample) },
      refusals: {
        'resource-not-found': 'no receivable account has the receivableAccountId (in production: the path)',
        'resource-not-accessible': "the account is another customer's",
        'receivable-account-not-active': 'the account is not ACTIVE',
        'unmatching-movement-currency-code': "currencyCode is not the account's",
        'current-account-not-receivable-enabled': "the customer's current account does not take collections",
      },
    }),
  },
  '/v1/sandbox/settlement-runs': {
    post: operation({
      id: 'runSandboxSettlement',
      tag,
      summary: 'Run the settlement cycle now',
      description:
        "For the caller's customer alone (other customers' accounts wait for the scheduled cycle): PAID receivables " +
        `whose money arrived are SETTLED into the current account. ${onlyInSandbox}`,
      scope: 'receivables:write',
      key: 'optional',
      body: { schema: { type: 'object', description: 'Nothing to ask: send none, or an object, whose members are ignored' }, example: {}, required: false },
      responses: {
        '201': one('SettlementRun', "What the cycle did for the caller's customer", { settlements: 1, settledReceivables: 1, settledAmount: 15000.5 }),
      },
      refusals: {
        'resource-not-found': 'in production: the path',
        'concurrent-modification':
          'some accounts met concurrent changes (a deadlock, or a row lock held past the lock wait) and were left as they were, the ' +
          'detail names them; the other accounts were settled. Sending the request again (the same key too) settles them',
      },
    }),
  },
  '/v1/sandbox/expiration-runs': {
    post: operation({
      id: 'runSandboxExpiration',
      tag,
      summary: 'Run the daily expiry job now',
      description:
        "For the caller's customer alone, as if on `date`: its PENDING receivables (children too) due before that day " +
        `become EXPIRED (event receivable.expired each). ${onlyInSandbox}`,
      scope: 'receivables:write',
      key: 'optional',
      body: { schema: ref('ExpirationRunInput'), example: { date: '2026-04-01' }, required: false },
      responses: { '201': one('ExpirationRun', 'How many receivables the run expired', { expiredReceivables: 3 }) },
      refusals: { 'resource-not-found': 'in production: the path' },
    }),
  },
  '/v1/sandbox/transfer-runs': {
    post: operation({
      id: 'runSandboxTransfers',
      tag,
      summary: 'Run the transfer worker now',
      description:
        "For the caller's customer alone, as if on `date`: PENDING transfers and SCHEDULED ones dated up to that day are " +
        'debited and paid (INTERNAL_TRANSFER at once; OUTGOING_TRANSFER through the banking provider), or FAIL ' +
        '(insufficient-balance, destination-rejected, ...); IN_PROGRESS ones whose worker stopped are reconciled with the ' +
        `provider's record of their payout. Events transfer.completed and transfer.failed. ${onlyInSandbox}`,
      scope: 'transfers:write',
      key: 'optional',
      body: { schema: ref('ExpirationRunInput'), example: { date: '2026-04-01' }, required: false },
      responses: { '201': one('TransferRun', "What the run did to the caller's transfers", { completed: 2, failed: 1, inProgress: 0 }) },
      refusals: { 'resource-not-found': 'in production: the path' },
    }),
  },
};

const schemas = {
  CollectionInput: {
    type: 'object',
    required: ['receivableAccountId', 'amount', 'counterParty'],
    properties: {
      receivableAccountId: id,
      amount: { type: ['number', 'string'] },
      currencyCode: { const: 'ARS' },
      counterParty: { type: 'object', required: ['name', 'taxId'], properties: { name: { type: 'string' }, taxId: taxIdInput } },
    },
  },
  SettlementRun: {
    type: 'object',
    required: ['settlements', 'settledReceivables', 'settledAmount'],
    properties: { settlements: { type: 'integer' }, settledReceivables: { type: 'integer' }, settledAmount: { type: 'number' } },
  },
  ExpirationRunInput: {
    type: 'object',
    properties: { date: { ...nullableDate, description: 'The Buenos Aires calendar day to run as of (YYYY-MM-DD); absent or null: today there' } },
  },
  TransferRun: {
    type: 'object',
    required: ['completed', 'failed', 'inProgress'],
    properties: {
      completed: { type: 'integer', minimum: 0, description: 'Transfers the run turned COMPLETED' },
      failed: { type: 'integer', minimum: 0, description: 'Transfers the run turned FAILED' },
      inProgress: { type: 'integer', minimum: 0, description: 'Transfers paid out whose outcome the provider has not given yet (a later run records it)' },
    },
  },
  ExpirationRun: {
    type: 'object',
    required: ['expiredReceivables'],
    properties: { expiredReceivables: { type: 'integer', minimum: 0, description: 'Receivables the run turned EXPIRED' } },
  },
} as const;

export const sandboxApi: ResourceApi = {
  tags: [
    {
      name: tag,
      description: 'Helpers that make in sandbox mode what the bank and the schedule make in production: collections, settlement, expiry and transfer runs',
    },
  ],
  paths,
  schemas,
};
