/** The pieces operations are described with: parameters, answers, errors. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: object) => ({ 'application/json': { schema } });
export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

/** The error responses every authenticated operation may give. */
export const authErrors = {
  '400': problem('validation: malformed request, with invalidParams'),
  '401': problem('unauthorized (no token); invalid-token: malformed, wrongly signed, of an unknown or revoked credential, claiming another customer or clientId than its credential\'s, or a lifetime beyond the 43200 s tokens are issued for; token-expired'),
  '403': problem('insufficient-scope or resource-not-accessible (another customer\'s resource)'),
  '429': problem('rate-limit-exceeded: the credential\'s allowance is spent, or, for a request without a valid token, its source address\'s; see Retry-After'),
  '500': problem('internal-error, with requestId'),
};
export const writeErrors = {
  ...authErrors,
  '409': problem('idempotency-key-reuse (same key, different body), idempotency-request-in-progress, concurrent-modification'),
  '413': problem('payload-too-large: bodies are limited to 1 MB'),
};

export const param = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'query', description, schema });
/** A path parameter: always required, as OpenAPI demands of every parameter in the path. */
export const pathParam = (name: string, description: string, schema: object = { type: 'string' }) => ({ name, in: 'path', required: true, description, schema });
/** Ids are written as plain decimal digits: no sign, exponent or padding. */
export const idSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const pathId = pathParam('id', 'Resource id', idSchema);
export const idempotencyKey = (required: boolean) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required,
  description: 'Up to 255 characters. Same key and body within 24 h replays the first response (header Idempotent-Replayed: true); another body gives 409 idempotency-key-reuse. Only the operation\'s results are kept: successes and business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, 429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry runs.',
  schema: { type: 'string', maxLength: 255 },
});
export const listParams = [
  param('page', '1-indexed page (default 1)', { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  param('count', 'Page size (default 20, max 200)', { type: 'integer', minimum: 1, maximum: 200 }),
  param('ids', 'Comma-separated ids'),
  param('fromDate', 'Creation date >= (ISO 8601; a bare date is that day in Buenos Aires)'),
  param('toDate', 'Creation date <= (inclusive; a bare date includes the whole day)'),
];
export const listOf = (name: string) => ({
  description: 'A page of results, newest first; X-Total-Count carries the total',
  headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
  content: json({ type: 'array', items: ref(name) }),
});
export const one = (name: string, description: string) => ({ description, content: json(ref(name)) });
export const created = (name: string) => ({ description: 'Created; Location names it', headers: { Location: { schema: { type: 'string' } } }, content: json(ref(name)) });

