import { Router } from 'express';
import { requireScope, authOf } from '../auth/authenticate';
import { ClientBody, ClientListQuery, clientDetailsOf } from '../dto/client-dto';
import { commonFilterOf, pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { clientResponse } from '../mappers/client-response';
import type { HttpContext } from './http-context';
import { ok, upserted } from './answer';
import { keyedBody, sendPage, validBody } from './respond';

export function clientRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('clients:read');
  const write = requireScope('clients:write');

  router.get('/clients', read, async (req, res) => {
    const query = parseInput(ClientListQuery, req.query, 'query');
    const { taxId, documentType, branchExternalCode, externalId } = query;
    const filter = { customerId: authOf(req).customerId, ...commonFilterOf(query), taxId, documentType, branchExternalCode, externalId };
    sendPage(res, await app.clients.list.execute({ filter, page: pageOf(query) }), clientResponse);
  });

  router.post(
    '/clients',
    write,
    ...keyedBody(keys, 'optional', validBody(ClientBody), async (req, app) => {
      const { client, created } = await app.clients.register.execute({ customerId: authOf(req).customerId, details: clientDetailsOf(req.body as ClientBody) });
      return upserted(created, `/v1/clients/${client.id}`, clientResponse(client));
    }),
  );

  router.get('/clients/:id', read, async (req, res) => {
    res.json(clientResponse(await app.clients.get.execute({ customerId: authOf(req).customerId, clientId: parseId(req.params.id) })));
  });

  router.put(
    '/clients/:id',
    write,
    ...keyedBody(keys, 'optional', validBody(ClientBody), async (req, app) => {
      const input = { customerId: authOf(req).customerId, clientId: parseId(req.params.id), details: clientDetailsOf(req.body as ClientBody) };
      return ok(clientResponse(await app.clients.replace.execute(input)));
    }),
  );

  return router;
}
