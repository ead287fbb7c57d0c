import { Router, type Request, type RequestHandler } from 'express';
import { Money, ValidationError } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { commonFilterOf, pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { TransferBody, TransferListQuery } from '../dto/transfer-dto';
import { transferResponse } from '../mappers/transfer-response';
import type { HttpContext } from './http-context';
import { created, ok } from './answer';
import { keyedBody, sendPage } from './respond';

/**
 * Transfers out of current accounts. Creating one moves money, so its Idempotency-Key is required (SPEC: "every
 * creation should carry" one); the moves on an existing transfer take one optionally, like other status moves.
 */
export function transferRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('transfers:read');
  const write = requireScope('transfers:write');
  const approve = requireScope('transfers:approve');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, transferId: parseId(req.params.id) });
  const decision = (req: Request) => ({ ...target(req), credentialId: authOf(req).credentialId });

  router.get('/transfers', read, async (req, res) => {
    const q = parseInput(TransferListQuery, req.query, 'query');
    const filter = {
      customerId: authOf(req).customerId,
      ...commonFilterOf(q),
      type: q.type,
      status: q.status,
      sourceAccountId: q.sourceAccountId,
      externalId: q.externalId,
    };
    sendPage(res, await app.transfers.list.execute({ filter, page: pageOf(q) }), transferResponse);
  });

  // A destination naming both a CBU/CVU and an alias is checked at the provider, as a recipient's is, before the
  // Idempotency-Key's transaction opens (no transaction waits on the provider; down or slow: 502/504, nothing
  // written): an alias of another account is 400, not a transfer paying the CBU/CVU while recording the alias.
  const aliasOfTheAccount: RequestHandler = async (req, _res, next) => {
    const { type, destination } = req.body as TransferBody;
    if (type === 'OUTGOING_TRANSFER' && typeof destination?.cbuCvu === 'string' && typeof destination.alias === 'string') {
      await app.contacts.resolveDestination.execute({ cbuCvu: destination.cbuCvu, alias: destination.alias }).catch((error: unknown) => {
        if (!(error instanceof ValidationError)) throw error;
        throw new ValidationError(error.invalidParams.map((param) => ({ ...param, name: `destination.${param.name}` })));
      });
    }
    next();
  };

  router.post(
    '/transfers',
    write,
    ...keyedBody(
      keys,
      'required',
      TransferBody,
      async (req, app) => {
        const body = req.body as TransferBody;
        const { customerId, credentialId } = authOf(req);
        const transfer = await app.transfers.create.execute({ ...body, customerId, credentialId, amount: Money.parse(body.amount, 'amount') });
        return created(transferResponse(transfer), `/v1/transfers/${transfer.id}`);
      },
      aliasOfTheAccount,
    ),
  );

  router.get('/transfers/:id', read, async (req, res) => {
    res.json(transferResponse(await app.transfers.get.execute(target(req))));
  });

  router.post(
    '/transfers/:id/cancellations',
    write,
    keys.optional(async (req, app) => ok(transferResponse(await app.transfers.cancel.execute(target(req))))),
  );

  router.post(
    '/transfers/:id/approvals',
    approve,
    keys.optional(async (req, app) => ok(transferResponse(await app.transfers.approve.execute(decision(req))))),
  );

  router.post(
    '/transfers/:id/rejections',
    approve,
    keys.optional(async (req, app) => ok(transferResponse(await app.transfers.reject.execute(decision(req))))),
  );

  return router;
}
