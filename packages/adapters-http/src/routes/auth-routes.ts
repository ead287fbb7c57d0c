import { Router, type RequestHandler } from 'express';
import { DomainError, type Application } from '@rcs/domain';
import { authOf } from '../auth/authenticate';
import { LoginBody } from '../dto/login-dto';
import { rateLimit } from '../middleware/rate-limit';
import type { RateLimitRules } from '../middleware/rate-limit-rules';
import { validBody } from './respond';

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * SPEC's `unauthorized` (401) is "token or credentials missing": a login body without a clientId or a clientSecret
 * (absent, null or empty) is refused so, before it is validated; one that is not an object, or whose credentials are
 * not strings, is malformed (400 validation).
 */
const credentialsGiven: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { clientId, clientSecret } = body as Record<string, unknown>;
    if (!given(clientId) || !given(clientSecret)) throw new DomainError('unauthorized', 'clientId and clientSecret are both required to log in');
  }
  next();
};

/**
 * POST /v1/auth/login (public; counted per source address before anything else, its body read, then counted per
 * clientId and source before the secret is hashed) and GET /v1/me (any valid token; `authenticated` also counts it per credential).
 */
export function authRoutes(
  app: Application,
  limits: Pick<RateLimitRules, 'bySource' | 'byClientAtSource'>,
  authenticated: RequestHandler[],
  bodies: RequestHandler[],
): Router {
  const router = Router();

  router.post(
    '/auth/login',
    rateLimit(limits.bySource),
    ...bodies,
    credentialsGiven,
    validBody(LoginBody),
    rateLimit(limits.byClientAtSource),
    async (req, res) => {
      res.json(await app.auth.login.execute(req.body as LoginBody));
    },
  );

  router.get('/me', ...authenticated, async (req, res) => {
    const { customerId, sub, scopes } = authOf(req);
    res.json(await app.auth.describeIdentity.execute({ customerId, clientId: sub, scopes }));
  });

  return router;
}
