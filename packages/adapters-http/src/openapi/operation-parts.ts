import type { ErrorCode } from '@rcs/domain';
import { PROBLEM_CONTENT_TYPE, STATUS_BY_CODE, problemOf, wireCodeOf } from '../middleware/problem';
import { headerRef } from './headers';

/** The pieces operations are described with: parameters, answers, errors. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A query parameter; text unless told, and never empty (every list refuses `?name=` with 400: leave it out instead). */
export const param = (name: string, description: string, schema: object = { type: 'string', minLength: 1 }) => ({ name, in: 'query', description, schema });
/** A path parameter: always required, as OpenAPI demands of every parameter in the path. */
export const pathParam = (name: string, description: string, schema: object = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});
/** Ids are written as plain decimal digits: no sign, exponent or padding. */
export const idSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const pathId = pathParam('id', 'Resource id', idSchema);
const idempotencyKey = (required: boolean) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required,
  description:
    'Up to 255 characters, sent once (the header repeated is 400). Same key and body within 24 h replays the first response (header Idempotent-Replayed: ' +
    "true); another body gives 409 idempotency-key-reuse. Only the operation's results are kept: successes and " +
    'business refusals (403, 404, 409, 422). A request refused as invalid (400) or before the operation (401, 413, ' +
    '429), 5xx and 409 concurrent-modification keep nothing: the key is released and the corrected or later retry ' +
    'runs.',
  schema: { type: 'string', maxLength: 255 },
  example: '8e0f6c1e-5b0a-4f4e-9a51-3f0c2d7b9a10',
});
const requestId = {
  name: 'X-Request-Id',
  in: 'header',
  description:
    'Your id for this request (1 to 128 of A-Z a-z 0-9 . _ : -), returned in the X-Request-Id header and written in ' +
    'the service log; another value is replaced by a generated one',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};
/** The paging parameters every list takes. */
export const pageParams = [
  param('page', '1-indexed page (default 1); each page costs more the deeper it is: to walk a list, follow the Link header instead', {
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
  }),
  param('count', 'Page size (default 20, max 200)', { type: 'integer', minimum: 1, maximum: 200 }),
  param('cursor', 'Where the page starts: the cursor of the previous page\'s Link rel="next" (opaque; not with page)'),
];
export const listParams = [
  ...pageParams,
  param('ids', 'Comma-separated ids'),
  param('fromDate', 'Creation date >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999)'),
  param('toDate', 'Creation date <= (inclusive; a bare date includes the whole day)'),
];

const json = (schema: object, example: unknown) => ({ 'application/json': { schema, example } });
export const listOf = (name: string, example: unknown) => ({
  description: 'A page of results, newest first; X-Total-Count carries the total, Link the next page',
  headers: { 'X-Total-Count': headerRef('X-Total-Count'), Link: headerRef('Link') },
  content: json({ type: 'array', items: ref(name) }, [example]),
});
export const one = (name: string, description: string, example: unknown) => ({ description, content: json(ref(name), example) });
export const created = (name: string, example: unknown) => ({
  description: 'Created; Location names it',
  headers: { Location: headerRef('Location') },
  content: json(ref(name), example),
});
export const noContent = (description: string) => ({ description });

/** A response object. */
interface Answer {
  readonly description: string;
  readonly headers?: object;
  readonly content?: object;
}

/** When the operation answers each error code it can give, in words. */
export type Refusals = Partial<Record<ErrorCode, string>>;

/** The refusals of an operation on the resource its path names. */
export const pathResource = (what: string): Refusals => ({
  'resource-not-found': `no ${what} has this id`,
  'resource-not-accessible': `the ${what} is another customer's`,
});

/** The scope of an operation any valid token may call. */
export const ANY_SCOPE = '';

function authenticatedRefusals(scope: string): Refusals {
  return {
    ...(scope === ANY_SCOPE ? {} : { 'insufficient-scope': `the token lacks ${scope} (requiredScope names it)` }),
    validation: 'a parameter, header or body member is malformed; invalidParams names each',
    unauthorized: 'no bearer token',
    'invalid-token':
      'the token is malformed, wrongly signed, of an unknown or revoked credential, claims another customer or ' +
      "clientId than its credential's or scopes it does not hold, or a lifetime beyond the 43200 s tokens are issued " +
      'for',
    'token-expired': 'the token is past its exp',
    'rate-limit-exceeded': "the credential's allowance is spent, or, for a request without a valid token, its source address's; see Retry-After",
    'internal-error': 'an unexpected failure; requestId names it in the service log',
  };
}

const keyedRefusals: Refusals = {
  'idempotency-key-reuse': 'the Idempotency-Key was used with another body or on another operation',
  'idempotency-request-in-progress': 'a request with this Idempotency-Key is still running',
};

/** Statuses a replayed answer can have: the operation's results (IdempotencyKeys keeps nothing else). */
const replayable = (status: string) => /^2/.test(status) || ['403', '404', '409', '422'].includes(status);

/** The Problem JSON answers of one status: its codes, when each is given, and an example of each. */
function problemResponse(refusals: ReadonlyArray<readonly [ErrorCode, string]>): Answer {
  const codes = [...new Set(refusals.map(([code]) => wireCodeOf(code)))];
  return {
    description: refusals.map(([code, when]) => `${wireCodeOf(code)}: ${when}`).join('; '),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { allOf: [ref('Problem'), { properties: { code: { enum: codes } } }] },
        examples: Object.fromEntries(refusals.map(([code, when]) => [wireCodeOf(code), { value: problemOf(code, when) }])),
      },
    },
  };
}

/** Error responses by status, each code under the status it is answered with. */
function refusalResponses(refusals: Refusals): Record<string, Answer> {
  const byStatus = new Map<number, Array<readonly [ErrorCode, string]>>();
  for (const [code, when] of Object.entries(refusals) as Array<[ErrorCode, string]>) {
    const status = STATUS_BY_CODE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), [code, when]]);
  }
  return Object.fromEntries([...byStatus].map(([status, list]) => [String(status), problemResponse(list)]));
}

export interface OperationSpec {
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** The scope the bearer token needs (CONTRACT "Scopes"); ANY_SCOPE: a valid token is enough; null: no token. */
  readonly scope: string | null;
  /** Whether the operation takes an Idempotency-Key, and whether it must. */
  readonly key?: 'required' | 'optional';
  readonly parameters?: readonly object[];
  readonly body?: { readonly schema: object; readonly example: unknown; readonly required?: boolean };
  /** The successful answers. */
  readonly responses: Readonly<Record<string, Answer>>;
  /** The refusals of the operation itself; those of authentication, idempotency and bodies are added. */
  readonly refusals?: Refusals;
}

/**
 * An operation object: its id, tag, scope (as the security requirement and in words), parameters, body and
 * answers, every refusal as Problem JSON under its status, and the headers each answer carries.
 */
export function operation(spec: OperationSpec): object {
  const authenticated = spec.scope !== null;
  const refusals: Refusals = {
    ...(authenticated ? authenticatedRefusals(spec.scope) : {}),
    ...(spec.key ? keyedRefusals : {}),
    ...(authenticated && (spec.key || spec.body)
      ? { 'concurrent-modification': 'another transaction changed the same rows at the same moment; retrying is safe' }
      : {}),
    // An operation without a body still reads one sent anyway, as JSON, before it runs.
    ...(spec.body
      ? { 'payload-too-large': 'bodies are limited to 1 MB', 'unsupported-media-type': 'a body must be sent as application/json' }
      : {
          'payload-too-large': 'it takes no body; one sent anyway is limited to 1 MB',
          'unsupported-media-type': 'it takes no body; one sent anyway must be application/json',
        }),
    ...spec.refusals,
  };
  const answers = { ...spec.responses, ...refusalResponses(refusals) };
  const responses = Object.entries(answers).map(([status, answer]) => {
    const replayed = spec.key && replayable(status) ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {};
    return [status, { ...answer, headers: { ...answer.headers, 'X-Request-Id': headerRef('X-Request-Id'), ...replayed } }] as const;
  });
  const scopeText = !authenticated ? 'Needs no token.' : spec.scope ? `Needs the scope \`${spec.scope}\`.` : 'Needs a valid token, of any scope.';
  return {
    operationId: spec.id,
    tags: [spec.tag],
    summary: spec.summary,
    description: [spec.description, scopeText].filter(Boolean).join('\n\n'),
    security: authenticated ? [{ bearer: spec.scope ? [spec.scope] : [] }] : [],
    parameters: [...(spec.key ? [idempotencyKey(spec.key === 'required')] : []), ...(spec.parameters ?? []), requestId],
    ...(spec.body ? { requestBody: { required: spec.body.required ?? true, content: json(spec.body.schema, spec.body.example) } } : {}),
    responses: Object.fromEntries(responses),
  };
}

/** One resource's share of the document: its tag, its paths and the schemas only it uses. */
export interface ResourceApi {
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  readonly paths: Readonly<Record<string, object>>;
  readonly schemas?: Readonly<Record<string, object>>;
}

/** A list's parameters for the same list nested under a resource: without the filter its path fixes. */
export const withoutParam = (parameters: ReadonlyArray<{ readonly name: string }>, name: string) => parameters.filter((p) => p.name !== name);
