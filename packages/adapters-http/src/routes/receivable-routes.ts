import { Router, type Request } from 'express';
import { DomainError, MAX_BATCH_ITEMS, ValidationError } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { ReceivableBatchBody, ReceivableBody, ReceivableEditBody, ReceivableListQuery, ReceivableStatusBody } from '../dto/receivable-dto';
import { editsOf, issueInputOf, receivableFilterOf } from '../dto/receivable-input';
import { receivableResponse } from '../mappers/receivable-response';
import type { HttpContext } from './http-context';
import { created, ok } from './answer';
import { batchResults, keyedBody, sendPage } from './respond';

/** Each batch item parsed on its own: a malformed item becomes that item's 400, not the batch's. */
function batchItems(customerId: number, items: unknown) {
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) {
    throw ValidationError.of('items', `must be an array of 1 to ${MAX_BATCH_ITEMS} receivables`);
  }
  return items.map((item) => {
    try {
      return issueInputOf(customerId, parseInput(ReceivableBody, item, 'body'));
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  });
}

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
    ...keyedBody(keys, 'required', ReceivableBody, async (req, app) => {
      const receivable = await app.receivables.issue.execute(issueInputOf(authOf(req).customerId, req.body as ReceivableBody));
      return created(receivableResponse(receivable), `/v1/receivables/${receivable.id}`);
    }),
  );

  router.post(
    '/receivables/batches',
    write,
    ...keyedBody(keys, 'required', ReceivableBatchBody, async (req, app) => {
      const results = await app.receivables.issueBatch.execute({ items: batchItems(authOf(req).customerId, (req.body as ReceivableBatchBody).items) });
      return ok(batchResults(results, 'receivable', receivableResponse));
    }),
  );

  router.get('/receivables/:id', read, async (req, res) => {
    res.json(receivableResponse(await app.receivables.get.execute(target(req))));
  });

  router.put(
    '/receivables/:id',
    write,
    ...keyedBody(keys, 'optional', ReceivableEditBody, async (req, app) => {
      const body = req.body as ReceivableEditBody;
      const { receivableAccountId, currencyCode, receivableType, clientId, associateId, parentReceivableId } = body;
      const identity = { receivableAccountId, currencyCode, receivableType, clientId, associateId, parentReceivableId };
      return ok(receivableResponse(await app.receivables.edit.execute({ ...target(req), edits: editsOf(body), identity })));
    }),
  );

  router.patch(
    '/receivables/:id/status',
    write,
    ...keyedBody(keys, 'optional', ReceivableStatusBody, async (req, app) => {
      const { status } = req.body as ReceivableStatusBody;
      return ok(receivableResponse(await app.receivables.changeStatus.execute({ ...target(req), status })));
    }),
  );

  router.get('/receivable-accounts/:id/receivables', read, async (req, res) => {
    const query = parseInput(ReceivableListQuery, req.query, 'query');
    const input = { filter: receivableFilterOf(authOf(req).customerId, query), page: pageOf(query), accountId: parseId(req.params.id) };
    sendPage(res, await app.receivables.list.execute(input), receivableResponse);
  });

  return router;
}
