import { ref, json, problem, authErrors, one } from './operation-parts';
import { id } from './shared-schemas';

/** Login and identity (routes/auth-routes.ts). */

export const authPaths = {
  '/v1/auth/login': {
    post: {
      operationId: 'login',
      summary: 'Exchange client credentials for a bearer token (HS256 JWT, 43200 s)',
      security: [],
      requestBody: { required: true, content: json(ref('LoginRequest')) },
      responses: { '200': one('LoginResponse', 'Token'), '400': problem('validation'), '401': problem('invalid-credentials'), '429': problem('rate-limit-exceeded: too many logins from this source address, or to this clientId from it; see Retry-After') },
    },
  },
  '/v1/me': { get: { operationId: 'getMe', summary: 'Who the token acts for', responses: { '200': one('Me', 'Identity'), ...authErrors } } },
} as const;

export const authSchemas = {
  LoginRequest: {
    type: 'object',
    required: ['clientId', 'clientSecret'],
    properties: { clientId: { type: 'string' }, clientSecret: { type: 'string' } },
  },
  LoginResponse: {
    type: 'object',
    additionalProperties: false,
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
    additionalProperties: false,
    required: ['customerId', 'customerName', 'clientId', 'scopes'],
    properties: { customerId: id, customerName: { type: 'string' }, clientId: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } },
  },
} as const;
