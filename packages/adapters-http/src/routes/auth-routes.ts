import { Router, type RequestHandler } from 'express';
import type { Application } from '@rcs/domain';
import { authOf } from '../auth/authenticate';
import { LoginBody } from '../dto/login-dto';
import { rateLimit } from '../middleware/rate-limit';
import type { RateLimitRules } from '../middleware/rate-limit-rules';
import { validBody } from './respond';

/**
 * POST /v1/auth/login (public; counted per source address before anything else, then per clientId and source
 * before the secret is hashed) and GET /v1/me (any valid token; `authenticated` also counts it per credential).
 */
export function authRoutes(app: Application, limits: Pick<RateLimitRules, 'bySource' | 'byClientAtSource'>, authenticated: RequestHandler[]): Router {
  const router = Router();

  router.post('/auth/login', rateLimit(limits.bySource), validBody(LoginBody), rateLimit(limits.byClientAtSource), async (req, res) => {
    res.json(await app.auth.login.execute(req.body as LoginBody));
  });

  router.get('/me', ...authenticated, async (req, res) => {
    const { customerId, sub, scopes } = authOf(req);
    res.json(await app.auth.describeIdentity.execute({ customerId, clientId: sub, scopes }));
  });

  return router;
}
