import express, { Router } from 'express';
import type { Application, IncomingTransferNotifications } from '@rcs/domain';
import { movementResponse } from '../mappers/money-responses';
import { withDecodingErrorsTyped } from '../middleware/body-decoding';

/**
 * POST /bank/notifications/incoming-transfers: the banking provider telling us money arrived on a CVU. Outside
 * /v1 (it is the provider calling, not an integrator) and authenticated by the provider's signature of the raw
 * body, which `notifications` checks. A repeated notification answers 200 with the movement first recorded; another
 * under a recorded id (another CVU, amount or currency) is 409.
 */
export function bankNotificationRoutes(app: Application, notifications: IncomingTransferNotifications): Router {
  const router = Router();
  router.post('/bank/notifications/incoming-transfers', withDecodingErrorsTyped(express.raw({ type: () => true, limit: '64kb' })), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const { movement, recorded } = await app.collections.record.fromProvider(notifications.read(raw, req.header(notifications.signatureHeader)));
    res.status(recorded ? 201 : 200).json(movementResponse(movement));
  });
  return router;
}
