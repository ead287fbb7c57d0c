import { Router, type Request } from 'express';
import { openedAccountWithStats } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { batchBody, batchItems, type BatchBody } from '../dto/batch-body';
import { commonFilterOf, pageOf } from '../dto/list-query';
import { nestedListQuery, parseId, parseInput } from '../dto/parse-input';
import { ExpandQuery, OpenReceivableAccountBody, ReceivableAccountListQuery, UpdateReceivableAccountBody } from '../dto/receivable-account-dto';
import { receivableAccountResponse } from '../mappers/receivable-account-response';
import type { HttpContext } from './http-context';
import { created, noContent, ok } from './answer';
import { batchResults, heldKeyBody, keyedBody, sendPage, validBody } from './respond';

/** The list filters of a query, for the caller's customer; status defaults to ACTIVE (SPEC). */
export function accountFilterOf(req: Request, query: ReceivableAccountListQuery) {
  const { clientId, associateId, ownerType, clientTaxId, branchExternalCode, cvu, alias } = query;
  return {
    customerId: authOf(req).customerId,
    ...commonFilterOf(query),
    clientId,
    associateId,
    ownerType,
    clientTaxId,
    branchExternalCode,
    cvu,
    alias,
    status: query.status ?? 'ACTIVE',
  };
}

export function receivableAccountRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('receivable-accounts:read');
  const write = requireScope('receivable-accounts:write');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, accountId: parseId(req.params.id) });

  router.get('/receivable-accounts', read, async (req, res) => {
    const query = parseInput(ReceivableAccountListQuery, req.query, 'query');
    const page = await app.receivableAccounts.list.execute({ filter: accountFilterOf(req, query), page: pageOf(query) });
    // SPEC: the lookup by clientTaxId answers no match with 204 and no body (plain lists answer []).
    if (query.clientTaxId !== undefined && page.total === 0) {
      res.setHeader('X-Total-Count', '0');
      return res.status(204).end();
    }
    sendPage(res, page, (record) => receivableAccountResponse(record, query.expand === 'owner'));
  });

  router.post(
    '/receivable-accounts',
    write,
    ...keyedBody(keys, 'required', validBody(OpenReceivableAccountBody), async (req, app) => {
      const account = await app.receivableAccounts.open.execute({ customerId: authOf(req).customerId, ...(req.body as OpenReceivableAccountBody) });
      return created(receivableAccountResponse(openedAccountWithStats(account)), `/v1/receivable-accounts/${account.id}`);
    }),
  );

  router.post(
    '/receivable-accounts/batches',
    write,
    ...keyedBody(keys, 'required', batchBody, async (req, app) => {
      const items = batchItems((req.body as BatchBody).items, 'accounts', (item) => parseInput(OpenReceivableAccountBody, item, 'body'));
      const results = await app.receivableAccounts.openBatch.execute({ customerId: authOf(req).customerId, items });
      return ok(batchResults(results, 'receivableAccount', (account) => receivableAccountResponse(openedAccountWithStats(account))));
    }),
  );

  router.get('/receivable-accounts/:id', read, async (req, res) => {
    const { expand } = parseInput(ExpandQuery, req.query, 'query');
    res.json(receivableAccountResponse(await app.receivableAccounts.get.execute(target(req)), expand === 'owner'));
  });

  // A held key: a new alias is registered at the banking provider between the change's transactions (no key's
  // transaction may stay open across the call).
  router.put(
    '/receivable-accounts/:id',
    write,
    ...heldKeyBody(keys, validBody(UpdateReceivableAccountBody), async (req) => {
      const { alias, associateId, clientId, currencyCode, owner } = req.body as UpdateReceivableAccountBody;
      const identity = { clientId, currencyCode, owner };
      return ok(receivableAccountResponse(await app.receivableAccounts.update.execute({ ...target(req), alias, associateId, identity })));
    }),
  );

  router.delete(
    '/receivable-accounts/:id',
    write,
    keys.optional(async (req, app) => {
      await app.receivableAccounts.disable.execute(target(req));
      return noContent();
    }),
  );

  router.post(
    '/receivable-accounts/:id/activations',
    write,
    keys.optional(async (req, app) => ok(receivableAccountResponse(await app.receivableAccounts.activate.execute(target(req))))),
  );

  for (const owner of ['client', 'associate'] as const) {
    router.get(`/${owner}s/:id/receivable-accounts`, read, async (req, res) => {
      const query = nestedListQuery(ReceivableAccountListQuery, req.query, `${owner}Id`);
      const input = { owner, ownerId: parseId(req.params.id), filter: accountFilterOf(req, query), page: pageOf(query) };
      sendPage(res, await app.receivableAccounts.listOfOwner.execute(input), (record) => receivableAccountResponse(record, query.expand === 'owner'));
    });
  }

  return router;
}
