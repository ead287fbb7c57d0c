import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { apiErrorOf } from './api-error';
import type { paths } from './generated/api';
import { sendWithRetries, type RetryOptions } from './retry';
import { tokenSource, type Credentials } from './token-source';

export interface ClientOptions {
  /** Where the service runs, e.g. http://localhost:3000. */
  baseUrl: string;
  credentials: Credentials;
  /** How long before the token expires a new one is fetched (default 60 s). */
  renewBeforeMs?: number;
  retry?: Partial<RetryOptions>;
  /** The transport (default the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** The clock the token renewal reads (default Date.now). */
  now?: () => number;
}

export type ApiClient = Client<paths>;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PUBLIC_PATHS = new Set(['/v1/auth/login', '/v1/openapi.json']);

/**
 * openapi-fetch's typed client for the service: it logs in with the credentials and renews the token before it
 * expires, gives every write an Idempotency-Key unless the call sets one (so a retry can never apply it twice),
 * retries as sendWithRetries says, and throws an ApiError carrying the Problem JSON for any answer but a success.
 */
export function createApiClient(options: ClientOptions): ApiClient {
  const transport = options.fetch ?? ((request: Request) => fetch(request));
  const retry: RetryOptions = { retries: 3, backoffMs: 250, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), ...options.retry };
  const send = (request: Request) => sendWithRetries(request, transport, retry);
  const token = tokenSource(options.baseUrl, options.credentials, send, options.renewBeforeMs ?? 60_000, options.now ?? Date.now);

  return createClient<paths>({
    baseUrl: options.baseUrl,
    async fetch(request) {
      if (!PUBLIC_PATHS.has(new URL(request.url).pathname)) request.headers.set('authorization', `Bearer ${await token()}`);
      if (WRITE_METHODS.has(request.method) && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', randomUUID());
      const response = await send(request);
      if (!response.ok) throw await apiErrorOf(response);
      return response;
    },
  });
}
