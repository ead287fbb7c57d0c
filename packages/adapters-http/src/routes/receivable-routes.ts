import { Router, type Request } from 'express';
import { authOf, requireScope } from '../auth/authenticate';
import { batchBody, batchItems, type BatchBody } from '../dto/batch-body';
import { pageOf } from '../dto/list-query';
import { nestedListQuery, parseId, parseInput } from '../dto/parse-input';
import { ReceivableBody, ReceivableEditBody, ReceivableListQuery, ReceivableStatusBody } from '../dto/receivable-dto';
import { editsOf, issueInputOf, receivableFilterOf } from '../dto/receivable-input';
import { receivableResponse } from '../mappers/receivable-response';
import type { HttpContext } from './http-context';
import { created, ok } from './answer';
import { batchResults, keyedBody, sendPage, validBody } from './respond';

export function receivableRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('receivables:read');
  const write = requireScope('receivables:write');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, receivableId: parseId(req.params.id) });

  router.get('/receivables', read, async (req, res) => {
    const query = parseInput(ReceivableListQuery, req.query, 'query');
    sendPage(res, await app.receivables.list.execute({ filter: receivableFilterOf(authOf(req).customerId, query), page: pageOf(query) }), receivableResponse);
  });

  router.post(
    '/receivables',
    write,
    ...keyedBody(keys, 'required', validBody(ReceivableBody), async (req, app) => {
      const receivable = await app.receivables.issue.execute(issueInputOf(authOf(req).customerId, req.body as ReceivableBody));
      return created(receivableResponse(receivable), `/v1/receivables/${receivable.id}`);
    }),
  );

  router.post(
    '/receivables/batches',
    write,
    ...keyedBody(keys, 'required', batchBody, async (req, app) => {
      const { customerId } = authOf(req);
      const items = batchItems((req.body as BatchBody).items, 'receivables', (item) => issueInputOf(customerId, parseInput(ReceivableBody, item, 'body')));
      const results = await app.receivables.issueBatch.execute({ items });
      return ok(batchResults(results, 'receivable', receivableResponse));
    }),
  );

  router.get('/receivables/:id', read, async (req, res) => {
    res.json(receivableResponse(await app.receivables.get.execute(target(req))));
  });

  router.put(
    '/receivables/:id',
    write,
    ...keyedBody(keys, 'optional', validBody(ReceivableEditBody), async (req, app) => {
      const body = req.body as ReceivableEditBody;
      const { receivableAccountId, currencyCode, receivableType, clientId, associateId, parentReceivableId } = body;
      const identity = { receivableAccountId, currencyCode, receivableType, clientId, associateId, parentReceivableId };
      return ok(receivableResponse(await app.receivables.edit.execute({ ...target(req), edits: editsOf(body), identity })));
    }),
  );

  router.patch(
    '/receivables/:id/status',
    write,
    ...keyedBody(keys, 'optional', validBody(ReceivableStatusBody), async (req, app) => {
      const { status } = req.body as ReceivableStatusBody;
      return ok(receivableResponse(await app.receivables.changeStatus.execute({ ...target(req), status })));
    }),
  );

  router.get('/receivable-accounts/:id/receivables', read, async (req, res) => {
    const query = nestedListQuery(ReceivableListQuery, req.query, 'receivableAccountId');
    const input = { filter: receivableFilterOf(authOf(req).customerId, query), page: pageOf(query), accountId: parseId(req.params.id) };
    sendPage(res, await app.receivables.list.execute(input), receivableResponse);
  });

  return router;
}
