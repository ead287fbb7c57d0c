import { one, operation, type ResourceApi } from './operation-parts';

/** Operational pages: health, metrics and this document (create-http-app.ts). */

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
        '503': one('Health', 'Database unreachable, or the service shutting down (SHUTDOWN_DRAIN_MS: still serving, take it out of rotation)', {
          status: 'degraded',
          database: 'down',
        }),
      },
    }),
  },
  '/metrics': {
    get: operation({
      id: 'getMetrics',
      tag,
      summary: "The service's metrics for Prometheus",
      description:
        'Requests by method, route template and status (counted and timed), scheduled job runs by outcome and their last success, and the ' +
        "process's own metrics; under HTTP_WORKERS, every worker's summed. No label names a customer or a resource.",
      scope: null,
      responses: {
        '200': {
          description: "Prometheus' text exposition format",
          content: {
            'text/plain': {
              schema: { type: 'string' },
              example: 'rcs_http_requests_total{method="GET",route="/v1/receivables/:id",status="200"} 42\n',
            },
          },
        },
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
    properties: { status: { enum: ['ok', 'degraded', 'draining'] }, database: { enum: ['up', 'down'] } },
  },
} as const;

export const serviceApi: ResourceApi = {
  tags: [{ name: tag, description: 'Operational pages: health for load balancers and supervisors, metrics for Prometheus, and this document' }],
  paths,
  schemas,
};
