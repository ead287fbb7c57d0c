import { Router, type Request, type RequestHandler } from 'express';
import { ValidationError } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { boundary, commonFilterOf, ListQuery, pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { DeliveryListQuery, DeliveryRequestBody, UpdateWebhookBody, WebhookBody } from '../dto/webhook-dto';
import { deliveryResponse, webhookResponse } from '../mappers/webhook-response';
import type { HttpContext } from './http-context';
import { created, noContent, ok } from './answer';
import { heldKeyBody, keyedBody, sendPage, validBody } from './respond';

export function webhookRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('webhooks:read');
  const write = requireScope('webhooks:write');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, webhookId: parseId(req.params.id) });
  // Creation and rotation answer with the secret: under an Idempotency-Key it is stored sealed, never in clear.
  const secretKeys = keys.sealedBy(app.webhooks.secretAtRest);
  // Run before the key's transaction opens: in production the url's check waits on DNS, which no transaction may.
  const checkSubscription: RequestHandler = async (req, _res, next) => {
    await app.webhooks.checkSubscription.execute(req.body as { url?: string; events?: string[] });
    next();
  };

  router.get('/webhooks', read, async (req, res) => {
    const query = parseInput(ListQuery, req.query, 'query');
    sendPage(res, await app.webhooks.list.execute({ filter: { customerId: authOf(req).customerId, ...commonFilterOf(query) }, page: pageOf(query) }), (w) =>
      webhookResponse(w),
    );
  });

  router.post(
    '/webhooks',
    write,
    ...keyedBody(
      secretKeys,
      'optional',
      validBody(WebhookBody),
      async (req, app) => {
        const { webhook, secret } = await app.webhooks.register.execute({ customerId: authOf(req).customerId, ...(req.body as WebhookBody) });
        return created(webhookResponse(webhook, secret), `/v1/webhooks/${webhook.id}`);
      },
      checkSubscription,
    ),
  );

  router.get('/webhooks/:id', read, async (req, res) => {
    res.json(webhookResponse(await app.webhooks.get.execute(target(req))));
  });

  router.put(
    '/webhooks/:id',
    write,
    ...keyedBody(
      keys,
      'optional',
      validBody(UpdateWebhookBody),
      async (req, app) => ok(webhookResponse(await app.webhooks.replace.execute({ ...target(req), ...(req.body as UpdateWebhookBody) }))),
      checkSubscription,
    ),
  );

  router.delete(
    '/webhooks/:id',
    write,
    keys.optional(async (req, app) => {
      await app.webhooks.delete.execute(target(req));
      return noContent();
    }),
  );

  router.post(
    '/webhooks/:id/pauses',
    write,
    keys.optional(async (req, app) => ok(webhookResponse(await app.webhooks.pause.execute(target(req))))),
  );

  router.post(
    '/webhooks/:id/activations',
    write,
    keys.optional(async (req, app) => ok(webhookResponse(await app.webhooks.activate.execute(target(req))))),
  );

  router.post(
    '/webhooks/:id/secret-rotations',
    write,
    secretKeys.optional(async (req, app) => {
      const { webhook, secret } = await app.webhooks.rotateSecret.execute(target(req));
      return ok(webhookResponse(webhook, secret));
    }),
  );

  // Its key is held, not claimed in a transaction: this calls the endpoint, which must happen with none open.
  router.post(
    '/webhooks/:id/deliveries',
    write,
    ...heldKeyBody(keys, validBody(DeliveryRequestBody), async (req) => {
      const { eventType, eventId } = req.body as DeliveryRequestBody;
      if (eventType !== undefined && eventId === undefined) return ok(deliveryResponse(await app.webhooks.sendTest.execute({ ...target(req), eventType })));
      if (eventId !== undefined && eventType === undefined) return ok(deliveryResponse(await app.webhooks.redeliver.execute({ ...target(req), eventId })));
      throw ValidationError.of('body', 'must carry eventType (a test event) or eventId (a redelivery), one of them');
    }),
  );

  router.get('/webhooks/:id/deliveries', read, async (req, res) => {
    const query = parseInput(DeliveryListQuery, req.query, 'query');
    const filter = {
      ...(query.fromDate ? { fromDate: boundary(query.fromDate, 'start') } : {}),
      ...(query.toDate ? { toDate: boundary(query.toDate, 'end') } : {}),
      status: query.status,
      eventType: query.eventType,
      eventId: query.eventId,
    };
    sendPage(res, await app.webhooks.deliveries.execute({ ...target(req), filter, page: pageOf(query) }), deliveryResponse);
  });

  return router;
}
