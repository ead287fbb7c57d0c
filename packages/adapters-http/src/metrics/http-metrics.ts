import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import { Router } from 'express';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What GET /metrics serves: the text a Prometheus server scrapes, and its media type. */
export interface MetricsExposition {
  readonly contentType: string;
  text(): Promise<string>;
}

/** Where create-http-app mounts the API; every other router is mounted at the root. */
export const API_MOUNT = '/v1';

/**
 * The matched route's template under its mount ('/v1' + '/receivables/:id'), or 'unmatched': never text from the
 * URL, so a caller cannot mint series. The mount is decided from the URL's start (Express matches paths whatever
 * their case) because an error answered after the router was left has lost req.baseUrl, not req.route.
 */
function routeTemplate(req: Request): string {
  if (!req.route) return 'unmatched';
  const underApi = req.originalUrl.slice(0, API_MOUNT.length + 1).toLowerCase() === `${API_MOUNT}/`;
  return `${underApi ? API_MOUNT : ''}${String((req.route as { path: unknown }).path)}`;
}

/**
 * Counts every request and times it, labelled by method, the route's template (`/v1/receivables/:id`, never the
 * id itself: a label per resource would grow without end) and status. Unmatched paths share one label.
 */
export function httpRequestMetrics(registry: Registry) {
  const requests = new Counter({
    name: 'rcs_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'rcs_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being written, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = routeTemplate(req);
      requests.inc({ method, route, status: res.statusCode });
      durations.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

/** GET /metrics: public like /health, for the operator's scraper; no label names a customer or a resource. */
export function metricsRoutes(exposition: MetricsExposition): Router {
  return Router().get('/metrics', async (_req, res) => {
    const text = await exposition.text();
    res.type(exposition.contentType).send(text);
  });
}
