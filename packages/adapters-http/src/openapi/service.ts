import { one, operation, type ResourceApi } from './operation-parts';

/** Operational pages: health and this document (create-http-app.ts). */

const tag = 'Service';

const paths = {
  '/health': {
    get: operation({
      id: 'getHealth',
      tag,
      summary: 'Liveness and database readiness',
      scope: null,
      responses: {
        '200': one('Health', 'Ready', { status: 'ok', database: 'up' }),
        '503': one('Health', 'Database unreachable', { status: 'degraded', database: 'down' }),
      },
    }),
  },
  '/v1/openapi.json': {
    get: operation({
      id: 'getOpenApiDocument',
      tag,
      summary: 'This document',
      scope: null,
      responses: {
        '200': {
          description: 'OpenAPI 3.1',
          content: {
            'application/json': {
              schema: { type: 'object' },
              example: { openapi: '3.1.0', info: { title: 'Receivables and Collections Service', version: '1.0.0' } },
            },
          },
        },
      },
      // The body parser runs before every /v1 route, this one included.
      refusals: { validation: 'a body that is not valid JSON', 'payload-too-large': 'bodies are limited to 1 MB' },
    }),
  },
};

const schemas = {
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: { status: { enum: ['ok', 'degraded'] }, database: { enum: ['up', 'down'] } },
  },
} as const;

export const serviceApi: ResourceApi = {
  tags: [{ name: tag, description: 'Operational pages: health for load balancers and supervisors, and this document' }],
  paths,
  schemas,
};
