import express, { Router } from 'express';
import { DomainError, movementView, type Application } from '@rcs/domain';
import { parseIncomingTransfer, SIGNATURE_HEADER, verifyNotificationSignature } from '@rcs/adapters-bank';
import { withDecodingErrorsTyped } from '../middleware/body-decoding';

/**
 * POST /bank/notifications/incoming-transfers: the banking provider telling us money arrived on a CVU. Outside
 * /v1 (it is the provider calling, not an integrator) and authenticated by an HMAC of the raw body under the
 * shared BANK_NOTIFICATION_SECRET. A repeated notification id answers 200 with the movement first recorded.
 */
export function bankNotificationRoutes(app: Application, secret: string): Router {
  const router = Router();
  router.post('/bank/notifications/incoming-transfers', withDecodingErrorsTyped(express.raw({ type: () => true, limit: '64kb' })), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!verifyNotificationSignature(raw, req.header(SIGNATURE_HEADER), secret)) {
      throw new DomainError('unauthorized', `missing or wrong ${SIGNATURE_HEADER} signature`);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new DomainError('validation', 'the notification body is not valid JSON', { invalidParams: [{ name: 'body', reason: 'not valid JSON' }] });
    }
    const { movement, recorded } = await app.collections.record.fromProvider(parseIncomingTransfer(body));
    res.status(recorded ? 201 : 200).json(movementView(movement));
  });
  return router;
}
