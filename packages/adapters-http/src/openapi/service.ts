import { one, problem } from './operation-parts';

/** Operational pages: health and this document (create-http-app.ts). */

export const servicePaths = {
  '/health': { get: { operationId: 'getHealth', summary: 'Liveness and database readiness', security: [], responses: { '200': one('Health', 'Ready'), '503': one('Health', 'Database unreachable') } } },
  '/v1/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1' },
        // The body parser runs before every /v1 route, this one included.
        '400': problem('validation: a body that is not valid JSON'),
        '413': problem('payload-too-large: bodies are limited to 1 MB'),
      },
    },
  },
} as const;

export const serviceSchemas = {
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: { status: { enum: ['ok', 'degraded'] }, database: { enum: ['up', 'down'] } },
  },
} as const;
