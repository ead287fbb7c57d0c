import { Router, type RequestHandler } from 'express';
import { Money, parseTaxId } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { CollectionBody } from '../dto/money-dto';
import { storableObject } from '../dto/parse-input';
import { ExpirationRunBody } from '../dto/receivable-dto';
import { movementResponse, settlementRunResponse } from '../mappers/money-responses';
import type { HttpContext } from './http-context';
import { created } from './answer';
import { heldKeyBody, keyedBody, validBody } from './respond';

/** A run's body is optional: a POST with none asks for the defaults (a body that is not JSON is still refused). */
const noBodyAsEmpty: RequestHandler = (req, _res, next) => {
  const sentNone = req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0';
  if (req.body === undefined && sentNone) req.body = {};
  next();
};

/** A body that asks for nothing: an object, whose members are ignored like any unknown one (and checked as any body's are). */
const emptyBody: RequestHandler = (req, _res, next) => {
  storableObject(req.body, 'body');
  req.body = {};
  next();
};

/**
 * Sandbox helpers (CONTRACT): each acts for the caller's customer alone and needs the write scope of what it
 * moves; mounted only in sandbox mode, so production answers 404.
 */
export function sandboxRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const receivablesWrite = requireScope('receivables:write');

  router.post(
    '/sandbox/collections',
    requireScope('receivable-accounts:write'),
    ...keyedBody(keys, 'optional', validBody(CollectionBody), async (req, app) => {
      const body = req.body as CollectionBody;
      const movement = await app.collections.record.execute({
        customerId: authOf(req).customerId,
        receivableAccountId: body.receivableAccountId,
        amount: Money.parse(body.amount, 'amount'),
        currencyCode: body.currencyCode,
        counterParty: { name: body.counterParty.name, taxId: parseTaxId(body.counterParty.taxId, 'counterParty.taxId') },
      });
      return created(movementResponse(movement));
    }),
  );

  // Held keys for the runs: each commits account by account (a settlement run), batch by batch (an expiration run) or
  // pays the provider between its transactions (a transfer run), so no key's transaction may stay open across one: an
  // expiration run held in one re-read, batch after batch, the rows it had expired and kept them locked from the
  // daily job. A run after a half-done one does the rest, as a scheduled run does.
  router.post(
    '/sandbox/settlement-runs',
    receivablesWrite,
    noBodyAsEmpty,
    ...heldKeyBody(keys, emptyBody, async (req) => created(settlementRunResponse(await app.settlements.run.execute({ customerId: authOf(req).customerId })))),
  );

  router.post(
    '/sandbox/expiration-runs',
    receivablesWrite,
    noBodyAsEmpty,
    ...heldKeyBody(keys, validBody(ExpirationRunBody), async (req) => {
      const { date } = req.body as ExpirationRunBody;
      const expiredReceivables = await app.receivables.expire.execute({ customerId: authOf(req).customerId, day: date ?? undefined });
      return created({ expiredReceivables });
    }),
  );

  router.post(
    '/sandbox/transfer-runs',
    requireScope('transfers:write'),
    noBodyAsEmpty,
    ...heldKeyBody(keys, validBody(ExpirationRunBody), async (req) => {
      const { date } = req.body as ExpirationRunBody;
      return created(await app.transfers.process.execute({ customerId: authOf(req).customerId, day: date ?? undefined, worker: 'sandbox' }));
    }),
  );

  return router;
}
