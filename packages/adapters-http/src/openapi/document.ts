import type { ErrorCode } from '@rcs/domain';
import { STATUS_BY_CODE, wireCodeOf } from '../middleware/problem';
import { associatesApi } from './associates';
import { authApi } from './auth';
import { bankNotificationsApi } from './bank-notifications';
import { clientsApi } from './clients';
import { contactsApi } from './contacts';
import { responseHeaders } from './headers';
import { moneyApi } from './money';
import { eventsApi } from './events';
import { rateLimitHeaders, withRateLimitHeaders } from './rate-limit-headers';
import { receivableAccountsApi } from './receivable-accounts';
import { receivablesApi } from './receivables';
import { routeSettlementsApi } from './route-settlements';
import { sandboxApi } from './sandbox';
import { serviceApi } from './service';
import { webhooksApi } from './webhooks';
import { webhookEvents } from './webhook-events';
import { sharedSchemas } from './shared-schemas';
import { transfersApi } from './transfers';
import type { ResourceApi } from './operation-parts';

// In the order a reader meets them; within a resource, a literal path (batches) before the template it would match.
const resources = [
  authApi,
  clientsApi,
  associatesApi,
  receivableAccountsApi,
  receivablesApi,
  routeSettlementsApi,
  moneyApi,
  transfersApi,
  contactsApi,
  eventsApi,
  webhooksApi,
  sandboxApi,
  bankNotificationsApi,
  serviceApi,
];

/** Which of the paths served only on request a service serves. */
export interface ServedOptions {
  readonly sandbox: boolean;
  readonly bankNotifications: boolean;
}

/**
 * The OpenAPI document a service serves: one description per resource (beside the routes that serve it), without
 * the sandbox helpers or the bank's notifications where that service does not serve them, so that a production
 * service's reference lists no path it answers 404 on.
 */
export function openApiDocumentOf(served: ServedOptions) {
  return documentOf(
    resources.filter((resource) => (resource !== sandboxApi || served.sandbox) && (resource !== bankNotificationsApi || served.bankNotifications)),
  );
}

function documentOf(included: readonly ResourceApi[]) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Receivables and Collections Service',
      version: '1.0.0',
      description: [
        'Record receivables, collect on dedicated CVU accounts, settle into current accounts, pay by transfer, hear about it by signed webhooks.',
        'Errors are Problem JSON (application/problem+json) with a stable `code`. Codes and statuses:',
        Object.entries(STATUS_BY_CODE)
          .map(([code, status]) => `${wireCodeOf(code as ErrorCode)} ${status}`)
          .join(', '),
        'A method a path does not serve is 405 method-not-allowed with an Allow header listing the methods it serves; ' +
          'an unknown path is 404 resource-not-found. Under /v1 both come after the token check, except on the paths that ' +
          'need no token.',
        'Rate limits: every answer under /v1 (this document aside) carries RateLimit-Limit, RateLimit-Remaining and ' +
          'RateLimit-Reset, the separate headers of draft-ietf-httpapi-ratelimit-headers-06 (not the combined ' +
          'RateLimit/RateLimit-Policy of later drafts), telling the allowance closest to running out: per credential for ' +
          'a valid token; per source address for logins and for requests whose token is missing or refused; per clientId ' +
          'and source address for logins. Limits count requests per sliding minute. A 429 rate-limit-exceeded also ' +
          'carries Retry-After. A body that cannot be read at all (400, 413 or 415 before authentication) carries none.',
        'Amounts are JSON numbers with at most 2 decimals, always exact in the JSON text. A single amount is at most ' +
          '9999999999999.99 (15 significant digits, which a double holds exactly); sums (balances, settlements and their ' +
          'movements, settledAmount, pendingAmount, route settlement totals) may go past it and are then written with ' +
          'every digit, as JSON allows: read them with a decimal-aware JSON parser, since one that makes every number a ' +
          "double (JavaScript's JSON.parse) rounds them.",
        'Choices beyond the spec: optional string fields come back as null when unset; unknown body fields are ignored, ' +
          'on an operation that takes query parameters (lists, expand), an unknown one is 400 validation (a misspelt filter would list everything); ' +
          'ids are positive integers up to 2^53 - 1 (JSON numbers carry them exactly); text holding NUL (\\u0000) or a lone ' +
          'UTF-16 surrogate, bodies not in UTF-8 (another charset, or bytes that are not UTF-8), bodies nested more than 32 levels deep, and dates (YYYY-MM-DD) outside the years 0001 to 9999 ' +
          "are 400 validation; list filters on another customer's ids match nothing; activating an ACTIVE associate is 422 " +
          'invalid-status-transition and deleting a DISABLED one is 422 associate-disabled.',
      ].join('\n\n'),
    },
    servers: [
      {
        url: '{scheme}://{host}',
        // Variables carry no description: swagger-parser's OpenAPI 3.1 schema misspells that member and refuses it.
        description: 'Where the service runs: `npm start` serves http://localhost:3000 (PORT); a deployment, its own https origin',
        variables: { scheme: { enum: ['http', 'https'], default: 'http' }, host: { default: 'localhost:3000' } },
      },
    ],
    security: [{ bearer: [] }],
    tags: included.flatMap((resource) => resource.tags),
    paths: withRateLimitHeaders(Object.fromEntries(included.flatMap((resource) => Object.entries(resource.paths)))),
    /** What the service sends: each event type as a request to a subscribed endpoint (OpenAPI 3.1). */
    webhooks: webhookEvents,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      headers: { ...rateLimitHeaders, ...responseHeaders },
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- left untyped on purpose: tests walk the schemas by name (openapi-enums.test.ts)
      schemas: Object.assign({ ...sharedSchemas }, ...included.map((resource) => resource.schemas)),
    },
  };
}

/** Every path the service can serve, whatever its mode. */
export const openApiDocument = openApiDocumentOf({ sandbox: true, bankNotifications: true });
