export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  retries: number;
  /** The first backoff; each further one doubles it (default 250 ms). */
  backoffMs: number;
  sleep: (ms: number) => Promise<void>;
}

// Methods HTTP defines as idempotent; a POST or PATCH is made so by its Idempotency-Key, which the service replays.
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

function isIdempotent(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || request.headers.has('idempotency-key');
}

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Sends the request, again after a 429 (it was refused before it ran, whatever its method) once Retry-After has
 * passed, and after a 502 or 504 (it may have run) only when sending it twice is safe, with exponential backoff.
 */
export async function sendWithRetries(request: Request, send: (request: Request) => Promise<Response>, options: RetryOptions): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await send(request.clone());
    const retryable = response.status === 429 || ((response.status === 502 || response.status === 504) && isIdempotent(request));
    if (!retryable || attempt >= options.retries) return response;
    await response.body?.cancel();
    const backoff = options.backoffMs * 2 ** attempt;
    await options.sleep(response.status === 429 ? (retryAfterMs(response) ?? backoff) : backoff);
  }
}
