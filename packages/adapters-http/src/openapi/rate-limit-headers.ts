/** The headers of draft-ietf-httpapi-ratelimit-headers-06 that tell a caller its allowance (middleware/rate-limit.ts). */
export const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests per minute of the limit closest to running out', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests that limit still allows now', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until its current minute ends', schema: { type: 'integer', minimum: 1 } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
};

type Header = keyof typeof rateLimitHeaders;
type Response = { readonly headers?: object };
type Operation = { readonly responses: Readonly<Record<string, Response>> };

const ref = (name: Header) => ({ $ref: `#/components/headers/${name}` });
const allowance = { 'RateLimit-Limit': ref('RateLimit-Limit'), 'RateLimit-Remaining': ref('RateLimit-Remaining'), 'RateLimit-Reset': ref('RateLimit-Reset') };

/** Every operation under /v1 but the document itself is rate-limited, so every answer it gives carries them. */
const limited = (path: string) => path.startsWith('/v1/') && path !== '/v1/openapi.json';

function withHeaders(operation: Operation): Operation {
  const responses = Object.entries(operation.responses).map(([status, response]) => {
    const headers = { ...response.headers, ...allowance, ...(status === '429' ? { 'Retry-After': ref('Retry-After') } : {}) };
    return [status, { ...response, headers }] as const;
  });
  return { ...operation, responses: Object.fromEntries(responses) };
}

/** A path item's operations with the headers; its other members (path-level parameters) as they are. */
function itemWithHeaders(item: object): object {
  const members = Object.entries(item as Record<string, unknown>).map(
    ([key, value]) => [key, (value as Partial<Operation>).responses ? withHeaders(value as Operation) : value] as const,
  );
  return Object.fromEntries(members);
}

/** `paths` with the rate-limit headers documented on each answer of the limited operations. */
export function withRateLimitHeaders<T extends Readonly<Record<string, object>>>(paths: T): T {
  const items = Object.entries(paths).map(([path, item]) => [path, limited(path) ? itemWithHeaders(item) : item] as const);
  return Object.fromEntries(items) as T;
}
