import { schemas } from './schemas';
import { STATUS_BY_CODE, wireCodeOf } from '../middleware/problem';
import type { ErrorCode } from '@rcs/domain';
import { rateLimitHeaders, withRateLimitHeaders } from './rate-limit-headers';

const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

/** The error responses every authenticated operation may give. */
const authErrors = {
  '400': problem('validation: malformed request, with invalidParams'),
  '401': problem('unauthorized (no token); invalid-token: malformed, wrongly signed, of an unknown or revoked credential, claiming another customer or clientId than its credential\'s, or a lifetime beyond the 43200 s tokens are issued for; token-expired'),
  '403': problem('insufficient-scope or resource-not-accessible (another customer\'s resource)'),
  '429': problem('rate-limit-exceeded: the credential\'s allowance is spent, or, for a request without a valid token, its source address\'s; see Retry-After'),
  '500': problem('internal-error, with requestId'),
};
const writeErrors = {
  ...authErrors,
  '409': problem('idempotency-key-reuse (same key, different body), idempotency-request-in-progress, concurrent-modification'),
  '413': problem('payload-too-large: bodies are limited to 1 MB'),
};

const param = (name: string, description: string, schema: object = { type: 'string' }, where = 'query') => ({ name, in: where, description, schema });
/** Ids are written as plain decimal digits: no sign, exponent or padding. */
const idSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const pathId = param('id', 'Resource id', idSchema, 'path');
const idempotencyKey = (required: boolean) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required,
  description: 'Up to 255 characters. Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation\'s results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.',
  schema: { type: 'string', maxLength: 255 },
});
const listParams = [
  param('page', '1-indexed page (default 1)', { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  param('count', 'Page size (default 20, max 200)', { type: 'integer', minimum: 1, maximum: 200 }),
  param('ids', 'Comma-separated ids'),
  param('fromDate', 'Creation date >= (ISO 8601; a bare date is that day in Buenos Aires)'),
  param('toDate', 'Creation date <= (inclusive; a bare date includes the whole day)'),
];
const movementParams = [
  ...listParams.slice(0, 2),
  param('sort', '-movementDate (default) or movementDate'),
  param('fromDate', 'movementDate >= (ISO 8601)'),
  param('toDate', 'movementDate <= (inclusive)'),
  param('movementType', 'CREDIT or DEBIT'),
  param('operationType', 'DEPOSIT or SETTLEMENT'),
];
const listOf = (name: keyof typeof schemas) => ({
  description: 'A page of results, newest first; X-Total-Count carries the total',
  headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
  content: json({ type: 'array', items: ref(name) }),
});
const one = (name: keyof typeof schemas, description: string) => ({ description, content: json(ref(name)) });
const created = (name: keyof typeof schemas) => ({ description: 'Created; Location names it', headers: { Location: { schema: { type: 'string' } } }, content: json(ref(name)) });

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Receivables and Collections Service',
    version: '1.0.0',
    description: [
      'Record receivables, collect on dedicated CVU accounts, settle into current accounts, pay by transfer, hear about it by signed webhooks.',
      'Errors are Problem JSON (application/problem+json) with a stable `code`. Codes and statuses:',
      Object.entries(STATUS_BY_CODE).map(([code, status]) => `${wireCodeOf(code as ErrorCode)} ${status}`).join(', '),
      'A method a path does not serve is 405 method-not-allowed with an Allow header listing the methods it serves; an unknown path is 404 resource-not-found. Under /v1 both come after the token check, except on the paths that need no token.',
      'Rate limits: every answer under /v1 (this document aside) carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, the separate headers of draft-ietf-httpapi-ratelimit-headers-06 (not the combined RateLimit/RateLimit-Policy of later drafts), telling the allowance closest to running out: per credential for a valid token; per source address for logins and for requests whose token is missing or refused; per clientId and source address for logins. Limits count requests per sliding minute. A 429 rate-limit-exceeded also carries Retry-After. A body that cannot be read at all (400 or 413 before authentication) carries none.',
      'Choices beyond the spec: optional string fields come back as null when unset; unknown body fields are ignored; ids are positive integers up to 2^53 - 1 (JSON numbers carry them exactly); text holding NUL (\\u0000) or a lone UTF-16 surrogate, bodies nested more than 32 levels deep, and dates (YYYY-MM-DD) outside the years 0001 to 9999 are 400 validation; list filters on another customer\'s ids match nothing; activating an ACTIVE associate is 422 invalid-status-transition and deleting a DISABLED one is 422 associate-disabled.',
    ].join('\n\n'),
  },
  servers: [{ url: '/' }],
  security: [{ bearer: [] }],
  paths: withRateLimitHeaders({
    '/health': { get: { summary: 'Liveness and database readiness', security: [], responses: { '200': one('Health', 'Ready'), '503': one('Health', 'Database unreachable') } } },
    '/v1/auth/login': {
      post: {
        summary: 'Exchange client credentials for a bearer token (HS256 JWT, 43200 s)',
        security: [],
        requestBody: { required: true, content: json(ref('LoginRequest')) },
        responses: { '200': one('LoginResponse', 'Token'), '400': problem('validation'), '401': problem('invalid-credentials'), '429': problem('rate-limit-exceeded: too many logins from this source address, or to this clientId from it; see Retry-After') },
      },
    },
    '/v1/me': { get: { summary: 'Who the token acts for', responses: { '200': one('Me', 'Identity'), ...authErrors } } },
    '/v1/clients': {
      get: {
        summary: 'List clients',
        parameters: [...listParams, param('taxId', '11 digits (dashes allowed)'), param('documentType', 'CUIT or CUIL'), param('branchExternalCode', 'Exact'), param('externalId', 'Exact')],
        responses: { '200': listOf('Client'), ...authErrors },
      },
      post: {
        summary: 'Create a client, or return the existing one with the same (documentType, taxId, branchExternalCode) unchanged',
        parameters: [idempotencyKey(false)],
        requestBody: { required: true, content: json(ref('ClientInput')) },
        responses: { '201': created('Client'), '200': one('Client', 'Existing client, unchanged'), '422': problem('incomplete-branch'), ...writeErrors },
      },
    },
    '/v1/clients/{id}': {
      parameters: [pathId],
      get: { summary: 'Get a client', responses: { '200': one('Client', 'Client'), '404': problem('resource-not-found'), ...authErrors } },
      put: {
        summary: 'Replace a client (full body); taxId, documentType and branchExternalCode cannot change (400 validation)',
        parameters: [idempotencyKey(false)],
        requestBody: { required: true, content: json(ref('ClientInput')) },
        responses: { '200': one('Client', 'Updated'), '404': problem('resource-not-found'), '422': problem('incomplete-branch'), ...writeErrors },
      },
    },
    '/v1/associates': {
      get: {
        summary: 'List associates (status defaults to ACTIVE)',
        parameters: [...listParams, param('taxId', '11 digits'), param('documentNumber', 'Exact'), param('type', 'Exact'), param('parentAssociateId', 'Supervisor id', idSchema), param('status', 'ACTIVE (default) or DISABLED')],
        responses: { '200': listOf('Associate'), ...authErrors },
      },
      post: {
        summary: 'Create an associate, or return the ACTIVE one with that taxId (a DISABLED one gives 422 associate-disabled)',
        parameters: [idempotencyKey(false)],
        requestBody: { required: true, content: json(ref('AssociateInput')) },
        responses: { '201': created('Associate'), '200': one('Associate', 'Existing associate'), '404': problem('resource-not-found (parentAssociateId)'), '422': problem('associate-disabled'), ...writeErrors },
      },
    },
    '/v1/associates/{id}': {
      parameters: [pathId],
      get: { summary: 'Get an associate', responses: { '200': one('Associate', 'Associate'), '404': problem('resource-not-found'), ...authErrors } },
      put: {
        summary: 'Replace an associate (full body); taxId cannot change, and a parentAssociateId that reports to this associate (a supervisor loop) is 400 validation',
        parameters: [idempotencyKey(false)],
        requestBody: { required: true, content: json(ref('AssociateInput')) },
        responses: { '200': one('Associate', 'Updated'), '404': problem('resource-not-found'), '422': problem('associate-disabled'), ...writeErrors },
      },
      delete: {
        summary: 'Soft delete (status DISABLED)',
        parameters: [idempotencyKey(false)],
        responses: { '204': { description: 'Disabled' }, '404': problem('resource-not-found'), '422': problem('associate-disabled'), ...writeErrors },
      },
    },
    '/v1/associates/{id}/activations': {
      parameters: [pathId],
      post: {
        summary: 'Re-enable a DISABLED associate',
        parameters: [idempotencyKey(false)],
        responses: { '200': one('Associate', 'Active again'), '404': problem('resource-not-found'), '422': problem('invalid-status-transition'), ...writeErrors },
      },
    },
    '/v1/receivable-accounts': {
      get: {
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
        summary: 'Open many accounts; each item stands alone, as if posted by itself',
        parameters: [idempotencyKey(true)],
        requestBody: { required: true, content: json(ref('ReceivableAccountBatchRequest')) },
        responses: { '200': one('ReceivableAccountBatchResponse', 'One result per item, in order'), ...writeErrors },
      },
    },
    '/v1/receivable-accounts/{id}': {
      parameters: [pathId],
      get: {
        summary: 'Get a receivable account',
        parameters: [param('expand', 'owner')],
        responses: { '200': one('ReceivableAccount', 'Account'), '404': problem('resource-not-found'), ...authErrors },
      },
      put: {
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
        summary: 'Disable (also stops provisioning)',
        parameters: [idempotencyKey(false)],
        responses: { '204': { description: 'Disabled' }, '404': problem('resource-not-found'), '422': problem('invalid-status-transition'), ...writeErrors },
      },
    },
    '/v1/receivable-accounts/{id}/activations': {
      parameters: [pathId],
      post: {
        summary: 'Re-enable a DISABLED account: ACTIVE, or PROVISIONING again if it never got a CVU',
        parameters: [idempotencyKey(false)],
        responses: { '200': one('ReceivableAccount', 'Re-enabled'), '404': problem('resource-not-found'), '422': problem('invalid-status-transition'), ...writeErrors },
      },
    },
    '/v1/clients/{id}/receivable-accounts': {
      parameters: [pathId],
      get: { summary: "The client's receivable accounts (same filters as the account list)", responses: { '200': listOf('ReceivableAccount'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/associates/{id}/receivable-accounts': {
      parameters: [pathId],
      get: { summary: "The associate's receivable accounts (same filters as the account list)", responses: { '200': listOf('ReceivableAccount'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/clients/{id}/associates': {
      parameters: [pathId],
      get: { summary: 'Associates sharing receivable accounts with the client', parameters: listParams.slice(0, 2), responses: { '200': listOf('Associate'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/receivables': {
      get: {
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
        summary: 'Issue up to 1000 receivables; each item stands alone, as if posted by itself',
        parameters: [idempotencyKey(true)],
        requestBody: { required: true, content: json(ref('ReceivableBatchRequest')) },
        responses: { '200': one('ReceivableBatchResponse', 'One result per item, in order'), ...writeErrors },
      },
    },
    '/v1/receivables/{id}': {
      parameters: [pathId],
      get: { summary: 'Get a receivable', responses: { '200': one('Receivable', 'Receivable'), '404': problem('resource-not-found'), ...authErrors } },
      put: {
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
      get: { summary: "The account's receivables (same filters as the receivable list)", responses: { '200': listOf('Receivable'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/route-settlements': {
      get: {
        summary: 'List route settlements',
        parameters: [...listParams.slice(0, 2), param('associateId', 'Exact', idSchema), param('routeCode', 'Exact'), param('fromDate', 'On the settlement day, YYYY-MM-DD'), param('toDate', 'On the settlement day, YYYY-MM-DD')],
        responses: { '200': listOf('RouteSettlement'), ...authErrors },
      },
      post: {
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
      parameters: [param('routeCode', 'The route code', { type: 'string' }, 'path')],
      get: { summary: 'A route settlement with its summary', responses: { '200': one('RouteSettlement', 'Route settlement'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/route-settlements/{routeCode}/receivables': {
      parameters: [param('routeCode', 'The route code', { type: 'string' }, 'path')],
      get: { summary: 'The receivables grouped under it', parameters: listParams.slice(0, 2), responses: { '200': listOf('Receivable'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/associates/{id}/route-settlements': {
      parameters: [pathId],
      get: { summary: "The associate's route settlements", responses: { '200': listOf('RouteSettlement'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/sandbox/collections': {
      post: {
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
    '/v1/current-accounts': {
      get: {
        summary: 'List current accounts (read-only)',
        parameters: [...listParams, param('accountType', 'MAIN or SUB'), param('status', 'ACTIVE or DISABLED')],
        responses: { '200': listOf('CurrentAccount'), ...authErrors },
      },
    },
    '/v1/current-accounts/{id}': {
      parameters: [pathId],
      get: { summary: 'Get a current account', responses: { '200': one('CurrentAccount', 'Current account'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/current-accounts/{id}/balances': {
      parameters: [pathId],
      get: { summary: 'Balances: settled funds in the CVU wallet', responses: { '200': one('Balances', 'Balances'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/current-accounts/{id}/movements': {
      parameters: [pathId],
      get: { summary: 'Movements of a current account', parameters: movementParams, responses: { '200': listOf('Movement'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/receivable-accounts/{id}/movements': {
      parameters: [pathId],
      get: { summary: 'Movements of a receivable account', parameters: movementParams, responses: { '200': listOf('Movement'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/v1/settlements': {
      get: {
        summary: 'Settlements (needs current-accounts:read)',
        parameters: [...listParams, param('receivableAccountId', 'Exact', idSchema)],
        responses: { '200': listOf('Settlement'), ...authErrors },
      },
    },
    '/v1/settlements/{id}': {
      parameters: [pathId],
      get: { summary: 'A settlement', responses: { '200': one('Settlement', 'Settlement'), '404': problem('resource-not-found'), ...authErrors } },
    },
    '/bank/notifications/incoming-transfers': {
      post: {
        summary: 'For the banking provider: money arrived on a CVU. Signed with x-bank-signature: sha256=<hex HMAC-SHA256 of the raw body> under BANK_NOTIFICATION_SECRET',
        security: [],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['notificationId', 'cvu', 'amount', 'currencyCode', 'counterParty'],
            properties: {
              notificationId: { type: 'string', description: "The provider's transfer id; recorded once" },
              cvu: { type: 'string', pattern: '^\\d{22}$' },
              amount: { type: ['number', 'string'] },
              currencyCode: { const: 'ARS' },
              counterParty: { type: 'object', required: ['name', 'taxId'], properties: { name: { type: 'string' }, taxId: { type: 'string' } } },
            },
          }),
        },
        responses: {
          '201': one('Movement', 'Recorded'),
          '200': one('Movement', 'Already recorded under this notificationId'),
          '400': problem('validation'),
          '401': problem('unauthorized: missing or wrong signature'),
          '404': problem('resource-not-found: no account has that CVU'),
          '422': problem('receivable-account-not-active, unmatching-movement-currency-code'),
        },
      },
    },
    '/v1/openapi.json': { get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1' } } } },
  }),
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    headers: rateLimitHeaders,
    schemas,
  },
} as const;
