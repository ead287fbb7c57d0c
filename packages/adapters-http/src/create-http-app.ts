import express, { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { authenticate } from './auth/authenticate';
import { CredentialStatusCache, type TokenCredential } from './auth/credential-status-cache';
import type { JwtTokenService } from './auth/jwt-token-service';
import { withDecodingErrorsTyped } from './middleware/body-decoding';
import { errorHandler, notFoundHandler } from './middleware/error-handler';
import { literalPathsFirst, methodNotAllowed } from './middleware/method-not-allowed';
import { countRequest, rateLimit } from './middleware/rate-limit';
import { rateLimitRules, type RateLimits } from './middleware/rate-limit-rules';
import { requestContext } from './middleware/request-context';
import { openApiDocumentOf } from './openapi/document';
import { associateRoutes } from './routes/associate-routes';
import { authRoutes } from './routes/auth-routes';
import { clientRoutes } from './routes/client-routes';
import { receivableAccountRoutes } from './routes/receivable-account-routes';
import { receivableRoutes } from './routes/receivable-routes';
import { routeSettlementRoutes } from './routes/route-settlement-routes';
import { webhookRoutes } from './routes/webhook-routes';
import { moneyRoutes } from './routes/money-routes';
import { transferRoutes } from './routes/transfer-routes';
import { contactRoutes } from './routes/contact-routes';
import { eventRoutes } from './routes/event-routes';
import { bankNotificationRoutes } from './routes/bank-notification-routes';
import { sandboxRoutes } from './routes/sandbox-routes';
import { docsRoutes } from './routes/docs-routes';
import { iconRoute } from './routes/html-page';
import { sandboxPanelRoutes } from './routes/sandbox-panel';
import { API_MOUNT, metricsRoutes, type MetricsExposition } from './metrics/http-metrics';
import type { HttpContext } from './routes/http-context';
import { enteredByPrefix } from './routes/entered-by-prefix';
import { idempotencyKeys, keepRawBody } from './middleware/idempotency';
import { utf8Text } from './middleware/utf8-text';
import { setApartItemProblems } from './dto/batch-body';
import { inexactNumbers, jsonText, ValidationError, type Application, type Clock, type IncomingTransferNotifications } from '@rcs/domain';
import { JSON_MEDIA_TYPES, jsonBodiesOnly } from './middleware/json-bodies-only';
import { strictQuery } from './middleware/strict-query';

export interface HttpOptions {
  readonly app: Application;
  /** Tells when the replay cache's answers expire. */
  readonly clock: Clock;
  readonly tokens: JwtTokenService;
  readonly logger: Logger;
  readonly rateLimits: RateLimits;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the source address (req.ip). */
  readonly trustProxy: boolean | number | string;
  /** Serve the sandbox helpers (APP_MODE=sandbox). */
  readonly sandbox: boolean;
  /** The provider's signed incoming-transfer notifications; without them the notification route is not served. */
  readonly bankNotifications?: IncomingTransferNotifications;
  /** A token's credential as it is now (revocation, owner), or undefined; cached briefly per credential. */
  readonly credentialOfToken: (credentialId: number) => Promise<TokenCredential | undefined>;
  /** Database readiness for /health. */
  readonly ready: () => Promise<boolean>;
  /** True once the service is shutting down: /health answers 503 and every answer closes its connection. */
  readonly draining: () => boolean;
  /** GET /metrics, and what records each request into it. */
  readonly metrics: MetricsExposition & { readonly recordRequest: RequestHandler };
}

/**
 * While draining, each answer closes its connection: a client's next request opens a new one, which the load
 * balancer, told by /health, sends to another instance instead of this one as it goes.
 */
function closedWhileDraining(draining: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (draining()) res.setHeader('Connection', 'close');
    next();
  };
}

/** The Express application: operational pages outside /v1, the API under it, one error handler at the end. */
export function createHttpApp(options: HttpOptions): Express {
  const http = express();
  http.disable('x-powered-by');
  http.set('etag', false);
  http.set('query parser', strictQuery);
  http.set('trust proxy', options.trustProxy);
  // Answers sent with res.json (reads) are written by jsonText, as serialized() writes the others: amounts past a
  // double's exact digits go out exactly.
  http.response.json = function json(this: Response, body: unknown) {
    if (!this.get('Content-Type')) this.type('application/json');
    return this.send(jsonText(body));
  };
  http.use(requestContext(options.logger), options.metrics.recordRequest, closedWhileDraining(options.draining));
  const health = Router().get('/health', async (_req, res) => {
    const database = (await options.ready()) ? 'up' : 'down';
    const status = options.draining() ? 'draining' : database === 'up' ? 'ok' : 'degraded';
    res.status(status === 'ok' ? 200 : 503).json({ status, database });
  });
  const outsideApi = [health, docsRoutes(), iconRoute(), metricsRoutes(options.metrics)];
  if (options.sandbox) outsideApi.push(sandboxPanelRoutes());
  if (options.bankNotifications) outsideApi.push(bankNotificationRoutes(options.app, options.bankNotifications));
  // Outside the API and its JSON parsing: the provider's signature covers the raw bytes.
  for (const router of outsideApi) http.use(enteredByPrefix(router));
  // Not strict: a body of valid JSON that is not an object (null, 5) reaches validation, which says it must be an
  // object, instead of being reported as "not valid JSON".
  // The verifier sees the bytes before JSON.parse turns number literals into doubles; what it throws is answered
  // as the domain error it is (400 validation). An inexact number inside a batch's item is that item's 400, left
  // for the batch's own check to place.
  const verify = (req: Request, res: Response, bytes: Buffer, charset: string) => {
    const problems = setApartItemProblems(req, inexactNumbers(utf8Text(bytes, charset)));
    if (problems.length > 0) throw new ValidationError(problems);
    keepRawBody(req, res, bytes);
  };
  // Read only once the request is let in (a token, or a login within its source's allowance): anyone could otherwise
  // have a megabyte parsed, or inflated, per request without being counted.
  const bodies = [withDecodingErrorsTyped(express.json({ limit: '1mb', strict: false, type: JSON_MEDIA_TYPES, verify })), jsonBodiesOnly];

  const limits = rateLimitRules(options.rateLimits);
  const authenticated = [
    authenticate(options.tokens, new CredentialStatusCache(options.credentialOfToken), (req, res) => countRequest(req, res, [limits.bySource])),
    rateLimit(limits.byCredential),
  ];
  const api = express.Router();
  const served = openApiDocumentOf({ sandbox: options.sandbox, bankNotifications: options.bankNotifications !== undefined });
  const document = Router().get('/openapi.json', (_req, res) => {
    res.json(served);
  });
  const open = [authRoutes(options.app, limits, authenticated, bodies), document];
  for (const router of open) api.use(enteredByPrefix(router));
  // A wrong method on an open path is answered before the token is asked for; on the others, after (like an unknown path).
  api.use(methodNotAllowed(open));
  api.use(authenticated, bodies);
  const keyFault = (error: unknown) => options.logger.warn({ err: error }, 'a held Idempotency-Key step failed; the key frees itself when its hold lapses');
  const routes: HttpContext = { app: options.app, keys: idempotencyKeys(options.app, options.clock, keyFault) };
  const resources = [
    clientRoutes,
    associateRoutes,
    receivableAccountRoutes,
    receivableRoutes,
    routeSettlementRoutes,
    moneyRoutes,
    transferRoutes,
    contactRoutes,
    eventRoutes,
    webhookRoutes,
  ].map((resource) => resource(routes));
  if (options.sandbox) resources.push(sandboxRoutes(routes));
  api.use(literalPathsFirst(resources));
  for (const router of resources) api.use(enteredByPrefix(router));
  api.use(methodNotAllowed(resources));
  http.use(API_MOUNT, api);

  http.use(methodNotAllowed(outsideApi));
  http.use(notFoundHandler);
  http.use(errorHandler(options.logger));
  return http;
}
