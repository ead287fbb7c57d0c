import { Router, type Request } from 'express';
import { requireScope, authOf } from '../auth/authenticate';
import { AssociateBody, AssociateListQuery, associateDetailsOf } from '../dto/associate-dto';
import { commonFilterOf, ListQuery, pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { associateResponse } from '../mappers/associate-response';
import type { HttpContext } from './http-context';
import { noContent, ok, upserted } from './answer';
import { keyedBody, sendPage, validBody } from './respond';

export function associateRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('associates:read');
  const write = requireScope('associates:write');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, associateId: parseId(req.params.id) });

  router.get('/associates', read, async (req, res) => {
    const query = parseInput(AssociateListQuery, req.query, 'query');
    const { taxId, documentNumber, type, parentAssociateId } = query;
    const filter = {
      customerId: authOf(req).customerId,
      ...commonFilterOf(query),
      taxId,
      documentNumber,
      type,
      parentAssociateId,
      status: query.status ?? 'ACTIVE',
    };
    sendPage(res, await app.associates.list.execute({ filter, page: pageOf(query) }), associateResponse);
  });

  router.post(
    '/associates',
    write,
    ...keyedBody(keys, 'optional', validBody(AssociateBody), async (req, app) => {
      const input = { customerId: authOf(req).customerId, details: associateDetailsOf(req.body as AssociateBody) };
      const { associate, created } = await app.associates.register.execute(input);
      return upserted(created, `/v1/associates/${associate.id}`, associateResponse(associate));
    }),
  );

  router.get('/clients/:id/associates', read, async (req, res) => {
    const query = parseInput(ListQuery, req.query, 'query');
    const input = { customerId: authOf(req).customerId, clientId: parseId(req.params.id), page: pageOf(query) };
    sendPage(res, await app.associates.listOfClient.execute(input), associateResponse);
  });

  router.get('/associates/:id', read, async (req, res) => {
    res.json(associateResponse(await app.associates.get.execute(target(req))));
  });

  router.put(
    '/associates/:id',
    write,
    ...keyedBody(keys, 'optional', validBody(AssociateBody), async (req, app) => {
      return ok(associateResponse(await app.associates.replace.execute({ ...target(req), details: associateDetailsOf(req.body as AssociateBody) })));
    }),
  );

  router.delete(
    '/associates/:id',
    write,
    keys.optional(async (req, app) => {
      await app.associates.disable.execute(target(req));
      return noContent();
    }),
  );

  router.post(
    '/associates/:id/activations',
    write,
    keys.optional(async (req, app) => ok(associateResponse(await app.associates.activate.execute(target(req))))),
  );

  return router;
}
