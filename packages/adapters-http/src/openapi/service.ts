import { one } from './operation-parts';

/** Operational pages: health and this document (create-http-app.ts). */

export const servicePaths = {
  '/health': { get: { summary: 'Liveness and database readiness', security: [], responses: { '200': one('Health', 'Ready'), '503': one('Health', 'Database unreachable') } } },
  '/v1/openapi.json': { get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1' } } } },
} as const;

export const serviceSchemas = {
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: { status: { enum: ['ok', 'degraded'] }, database: { enum: ['up', 'down'] } },
  },
} as const;
