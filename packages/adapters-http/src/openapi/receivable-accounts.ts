import { ref, json, problem, authErrors, writeErrors, param, idSchema, pathId, idempotencyKey, listParams, listOf, one, created } from './operation-parts';
import { timestamp, nullableString, taxId, id, batchResponse } from './shared-schemas';

/** Receivable accounts (routes/receivable-account-routes.ts). */

export const receivableAccountsPaths = {
  '/v1/receivable-accounts': {
    get: {
      operationId: 'listReceivableAccounts',
      summary: 'List receivable accounts (status defaults to ACTIVE). With clientTaxId and no match: 204, no body, X-Total-Count 0',
      parameters: [
        ...listParams,
        param('clientId', 'Owner client', idSchema),
        param('associateId', 'Owner associate', idSchema),
        param('ownerType', 'CLIENT, ASSOCIATE or CLIENT_AND_ASSOCIATE'),
        param('clientTaxId', "The client's taxId (11 digits): the lookup of candidate accounts"),
        param('branchExternalCode', "The client's branch"),
        param('cvu', 'Exact, 22 digits'),
        param('alias', 'Exact'),
        param('status', 'PROVISIONING, ACTIVE (default) or DISABLED'),
        param('expand', 'owner: add names and tax ids of the owners'),
      ],
      responses: { '200': listOf('ReceivableAccount'), '204': { description: 'Lookup by clientTaxId found nothing (X-Total-Count: 0)' }, ...authErrors },
    },
    post: {
      operationId: 'createReceivableAccount',
      summary: 'Open a receivable account; its CVU is requested from the banking provider asynchronously (status PROVISIONING, cvu and alias null)',
      parameters: [idempotencyKey(true)],
      requestBody: { required: true, content: json(ref('ReceivableAccountInput')) },
      responses: {
        ...writeErrors,
        '201': created('ReceivableAccount'),
        '404': problem('resource-not-found (clientId or associateId)'),
        '409': problem('receivable-account-already-exists, with existingResourceId; idempotency conflicts'),
        '422': problem('receivable-account-requires-owner, owner-type-not-supported, associate-disabled'),
      },
    },
  },
  '/v1/receivable-accounts/batches': {
    post: {
      operationId: 'createReceivableAccountBatch',
      summary: 'Open many accounts; each item stands alone, as if posted by itself',
      parameters: [idempotencyKey(true)],
      requestBody: { required: true, content: json(ref('ReceivableAccountBatchRequest')) },
      responses: { '200': one('ReceivableAccountBatchResponse', 'One result per item, in order'), ...writeErrors },
    },
  },
  '/v1/receivable-accounts/{id}': {
    parameters: [pathId],
    get: {
      operationId: 'getReceivableAccount',
      summary: 'Get a receivable account',
      parameters: [param('expand', 'owner')],
      responses: { '200': one('ReceivableAccount', 'Account'), '404': problem('resource-not-found'), ...authErrors },
    },
    put: {
      operationId: 'updateReceivableAccount',
      summary: 'Change the alias and/or bind an associate',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('ReceivableAccountUpdate')) },
      responses: {
        ...writeErrors,
        '200': one('ReceivableAccount', 'Updated'),
        '404': problem('resource-not-found'),
        '409': problem('receivable-account-already-exists, alias-already-in-use, idempotency conflicts'),
        '422': problem('receivable-account-owner-immutable, associate-disabled, invalid-status-transition'),
      },
    },
    delete: {
      operationId: 'disableReceivableAccount',
      summary: 'Disable (also stops provisioning)',
      parameters: [idempotencyKey(false)],
      responses: { '204': { description: 'Disabled' }, '404': problem('resource-not-found'), '422': problem('invalid-status-transition'), ...writeErrors },
    },
  },
  '/v1/receivable-accounts/{id}/activations': {
    parameters: [pathId],
    post: {
      operationId: 'activateReceivableAccount',
      summary: 'Re-enable a DISABLED account: ACTIVE, or PROVISIONING again if it never got a CVU',
      parameters: [idempotencyKey(false)],
      responses: { '200': one('ReceivableAccount', 'Re-enabled'), '404': problem('resource-not-found'), '422': problem('invalid-status-transition'), ...writeErrors },
    },
  },
  '/v1/clients/{id}/receivable-accounts': {
    parameters: [pathId],
    get: { operationId: 'listClientReceivableAccounts', summary: "The client's receivable accounts (same filters as the account list)", responses: { '200': listOf('ReceivableAccount'), '404': problem('resource-not-found'), ...authErrors } },
  },
  '/v1/associates/{id}/receivable-accounts': {
    parameters: [pathId],
    get: { operationId: 'listAssociateReceivableAccounts', summary: "The associate's receivable accounts (same filters as the account list)", responses: { '200': listOf('ReceivableAccount'), '404': problem('resource-not-found'), ...authErrors } },
  },
} as const;

export const receivableAccountsSchemas = {
  ReceivableAccountInput: {
    type: 'object',
    description: 'clientId and/or associateId (at least one: else 422 receivable-account-requires-owner)',
    properties: {
      clientId: { type: ['integer', 'null'], minimum: 1 },
      associateId: { type: ['integer', 'null'], minimum: 1 },
      currencyCode: { const: 'ARS' },
    },
  },
  ReceivableAccountUpdate: {
    type: 'object',
    properties: {
      alias: { type: 'string', pattern: '^[A-Za-z0-9.-]{6,20}$', description: 'Only once the account has one (ACTIVE); unique across the service' },
      associateId: { type: 'integer', minimum: 1, description: 'Binds an associate to an account that has none (or replaces it before the CVU is active)' },
    },
  },
  ReceivableAccount: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'cvu', 'alias', 'currencyCode', 'status', 'disabledReason', 'disabledMessage', 'owner', 'stats', 'creationDate', 'modificationDate'],
    properties: {
      id,
      cvu: { type: ['string', 'null'], pattern: '^\\d{22}$', description: 'null while PROVISIONING' },
      alias: { type: ['string', 'null'], description: 'Generated from the customer template when the CVU is assigned' },
      currencyCode: { const: 'ARS' },
      status: { enum: ['PROVISIONING', 'ACTIVE', 'DISABLED'] },
      disabledReason: {
        enum: ['PROVIDER_REJECTED', 'PROVISIONING_RETRIES_EXHAUSTED', 'DISABLED_BY_CUSTOMER', null],
        description:
          'Why a DISABLED account is disabled; null otherwise. PROVIDER_REJECTED: the banking provider refused to issue the CVU (for good; see disabledMessage). PROVISIONING_RETRIES_EXHAUSTED: the provider could not be reached or answered unusably PROVISIONING_MAX_ATTEMPTS times in a row. DISABLED_BY_CUSTOMER: DELETE. Activating the account clears it. Also in receivable-account.disabled events.',
      },
      disabledMessage: { type: ['string', 'null'], description: "The provider's own words when disabledReason is PROVIDER_REJECTED; null otherwise" },
      owner: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'id'],
            properties: { type: { enum: ['CLIENT', 'ASSOCIATE'] }, id, displayName: { type: 'string' }, taxId },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'clientId', 'associateId'],
            properties: {
              type: { const: 'CLIENT_AND_ASSOCIATE' },
              clientId: id,
              associateId: id,
              client: {
                type: 'object',
                additionalProperties: false,
                required: ['displayName', 'taxId', 'branchExternalCode'],
                properties: { displayName: { type: 'string' }, taxId, branchExternalCode: nullableString },
              },
              associate: { type: 'object', additionalProperties: false, required: ['displayName', 'taxId'], properties: { displayName: { type: 'string' }, taxId } },
            },
          },
        ],
        description: 'displayName/taxId (or client/associate) only with expand=owner',
      },
      stats: {
        type: 'object',
        required: ['pendingAmount'],
        properties: { pendingAmount: { type: 'number', description: 'Sum of the PENDING receivables of the account' } },
      },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
  ReceivableAccountBatchRequest: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/ReceivableAccountInput' } } },
  },
  ReceivableAccountBatchResponse: batchResponse('receivableAccount', 'ReceivableAccount'),
} as const;
