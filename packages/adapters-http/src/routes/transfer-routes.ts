import { Router, type Request, type RequestHandler } from 'express';
import { Money, outgoingDestination, ValidationError } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { commonFilterOf, pageOf } from '../dto/list-query';
import { parseId, parseInput } from '../dto/parse-input';
import { TransferBody, TransferListQuery } from '../dto/transfer-dto';
import { transferResponse } from '../mappers/transfer-response';
import type { HttpContext } from './http-context';
import { created, ok } from './answer';
import { keyedBody, sendPage, validBody } from './respond';
import { ProviderLookups } from './provider-lookups';

/**
 * Transfers out of current accounts. Every write takes an Idempotency-Key optionally (SPEC: a creation "should
 * carry" one; its list of writes that must names receivables and receivable accounts alone).
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

  // An alias is resolved at the provider, as a recipient's is (CONTRACT: resolving an alias for a transfer reaches
  // the provider synchronously), before the Idempotency-Key's transaction opens (ProviderLookups says how each
  // answer is kept). The transfer is created with the account found (its answer shows the cbuCvu), and one naming a
  // CBU/CVU too must name the same account: an alias of another is 400, not a transfer paying the CBU/CVU while
  // recording the alias.
  const resolved = new ProviderLookups<string>();
  const resolveAlias: RequestHandler = async (req, _res, next) => {
    const { type, destination } = req.body as TransferBody;
    if (type === 'OUTGOING_TRANSFER' && typeof destination?.alias === 'string') {
      // Its own shape first: a malformed destination is a 400 whatever the provider says, or whether it answers.
      outgoingDestination(destination);
      const { alias, cbuCvu } = destination;
      await resolved.look(req, async () => {
        const found = await app.contacts.resolveDestination.execute({ cbuCvu: cbuCvu ?? undefined, alias }).catch((error: unknown) => {
          if (!(error instanceof ValidationError)) throw error;
          throw new ValidationError(error.invalidParams.map((param) => ({ ...param, name: `destination.${param.name}` })));
        });
        return found.cbuCvu;
      });
    }
    next();
  };
  const destinationOf = (req: Request, destination: TransferBody['destination']) => {
    const cbuCvu = resolved.of(req);
    return cbuCvu !== undefined && destination ? { ...destination, cbuCvu } : destination;
  };

  router.post(
    '/transfers',
    write,
    ...keyedBody(
      keys,
      'optional',
      validBody(TransferBody),
      async (req, app) => {
        const body = req.body as TransferBody;
        const { customerId, credentialId } = authOf(req);
        const destination = destinationOf(req, body.destination);
        const transfer = await app.transfers.create.execute({ ...body, destination, customerId, credentialId, amount: Money.parse(body.amount, 'amount') });
        return created(transferResponse(transfer), `/v1/transfers/${transfer.id}`);
      },
      resolveAlias,
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
