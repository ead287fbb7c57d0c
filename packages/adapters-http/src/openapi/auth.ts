import { ANY_SCOPE, one, operation, ref, type ResourceApi } from './operation-parts';
import { id } from './shared-schemas';

/** Login and identity (routes/auth-routes.ts). */

const tag = 'Authentication';
const scopes = ['clients:read', 'clients:write', 'receivables:read', 'receivables:write'];

const paths = {
  '/v1/auth/login': {
    post: operation({
      id: 'login',
      tag,
      summary: 'Get a bearer token',
      description: "Exchanges a credential's clientId and clientSecret for a bearer token (HS256 JWT) valid for 43200 s, holding the credential's scopes.",
      scope: null,
      body: { schema: ref('LoginRequest'), example: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' } },
      responses: {
        '200': one('LoginResponse', 'Token', {
          accessToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzYW5kYm94LWNsaWVudCJ9.c2lnbmF0dXJl',
          tokenType: 'Bearer',
          expiresIn: 43200,
          scope: scopes.join(' '),
        }),
      },
      refusals: {
        validation: 'the body is not an object, or clientId and clientSecret are both there but one is not a string (or is too long)',
        unauthorized: 'clientId or clientSecret is missing (absent, null or empty): credentials missing, as SPEC says; checked before their types',
        'invalid-credentials': 'no active credential has this clientId and clientSecret',
        'rate-limit-exceeded': 'too many logins from this source address, or to this clientId from it; see Retry-After',
        'internal-error': 'an unexpected failure; requestId names it in the service log',
      },
    }),
  },
  '/v1/me': {
    get: operation({
      id: 'getMe',
      tag,
      summary: 'Who the token acts for',
      scope: ANY_SCOPE,
      responses: { '200': one('Me', 'Identity', { customerId: 1, customerName: 'Sandbox customer', clientId: 'sandbox-client', scopes }) },
    }),
  },
};

const schemas = {
  LoginRequest: {
    type: 'object',
    required: ['clientId', 'clientSecret'],
    properties: { clientId: { type: 'string' }, clientSecret: { type: 'string' } },
  },
  LoginResponse: {
    type: 'object',
    required: ['accessToken', 'tokenType', 'expiresIn', 'scope'],
    properties: {
      accessToken: { type: 'string' },
      tokenType: { const: 'Bearer' },
      expiresIn: { type: 'integer', description: 'Seconds (43200)' },
      scope: { type: 'string', description: 'Space-separated scopes' },
    },
  },
  Me: {
    type: 'object',
    required: ['customerId', 'customerName', 'clientId', 'scopes'],
    properties: { customerId: id, customerName: { type: 'string' }, clientId: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } },
  },
} as const;

export const authApi: ResourceApi = {
  tags: [{ name: tag, description: 'Tokens: every other /v1 operation but this document takes `Authorization: Bearer <accessToken>`' }],
  paths,
  schemas,
};
