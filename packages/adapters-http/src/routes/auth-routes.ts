import { Router, type RequestHandler } from 'express';
import type { Application } from '@rcs/domain';
import { authOf } from '../auth/authenticate';
import { LoginBody } from '../dto/login-dto';
import { rateLimit, type SlidingWindowLimiter } from '../middleware/rate-limit';
import { validBody } from './respond';

/** POST /v1/auth/login (public, limited per clientId) and GET /v1/me (any valid token). */
export function authRoutes(app: Application, limiter: SlidingWindowLimiter, authenticated: RequestHandler): Router {
  const router = Router();

  router.post('/auth/login', validBody(LoginBody), rateLimit(limiter, (req) => `login:${req.body.clientId}`), async (req, res) => {
    res.json(await app.auth.login.execute(req.body));
  });

  router.get('/me', authenticated, async (req, res) => {
    const { customerId, sub, scopes } = authOf(req);
    res.json(await app.auth.describeIdentity.execute({ customerId, clientId: sub, scopes }));
  });

  return router;
}
