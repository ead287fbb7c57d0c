import { Router, type Request, type RequestHandler } from 'express';
import type { AccountKind } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { boundary, commonFilterOf, pageOf } from '../dto/list-query';
import { CurrentAccountListQuery, MovementListQuery, SettlementListQuery } from '../dto/money-dto';
import { parseId, parseInput } from '../dto/parse-input';
import { balancesResponse, currentAccountResponse, movementResponse, settlementResponse } from '../mappers/money-responses';
import type { HttpContext } from './http-context';
import { sendPage } from './respond';

/** Current accounts (read-only), their balances and movements, receivable account movements, settlements. */
export function moneyRoutes({ app }: HttpContext): Router {
  const router = Router();
  const currentRead = requireScope('current-accounts:read');
  const target = (req: Request) => ({ customerId: authOf(req).customerId, accountId: parseId(req.params.id) });

  router.get('/current-accounts', currentRead, async (req, res) => {
    const query = parseInput(CurrentAccountListQuery, req.query, 'query');
    const filter = { customerId: authOf(req).customerId, ...commonFilterOf(query), accountType: query.accountType, status: query.status };
    sendPage(res, await app.currentAccounts.list.execute({ filter, page: pageOf(query) }), currentAccountResponse);
  });

  router.get('/current-accounts/:id', currentRead, async (req, res) => {
    res.json(currentAccountResponse(await app.currentAccounts.get.execute(target(req))));
  });

  router.get('/current-accounts/:id/balances', currentRead, async (req, res) => {
    res.json(balancesResponse(await app.currentAccounts.balances.execute(target(req))));
  });

  const movements = (accountKind: AccountKind, scope: RequestHandler) => [
    scope,
    (async (req, res) => {
      const q = parseInput(MovementListQuery, req.query, 'query');
      const filter = {
        ...target(req),
        accountKind,
        order: q.sort === 'movementDate' ? ('asc' as const) : ('desc' as const),
        ...(q.fromDate ? { fromDate: boundary(q.fromDate, 'start') } : {}),
        ...(q.toDate ? { toDate: boundary(q.toDate, 'end') } : {}),
        movementType: q.movementType,
        operationType: q.operationType,
      };
      sendPage(res, await app.movements.list.execute({ filter, page: pageOf(q) }), movementResponse);
    }) as RequestHandler,
  ];
  router.get('/current-accounts/:id/movements', ...movements('CURRENT', currentRead));
  router.get('/receivable-accounts/:id/movements', ...movements('RECEIVABLE', requireScope('receivable-accounts:read')));

  router.get('/settlements', currentRead, async (req, res) => {
    const query = parseInput(SettlementListQuery, req.query, 'query');
    const filter = { customerId: authOf(req).customerId, ...commonFilterOf(query), receivableAccountId: query.receivableAccountId };
    sendPage(res, await app.settlements.list.execute({ filter, page: pageOf(query) }), settlementResponse);
  });

  router.get('/settlements/:id', currentRead, async (req, res) => {
    res.json(settlementResponse(await app.settlements.get.execute({ customerId: authOf(req).customerId, settlementId: parseId(req.params.id) })));
  });

  return router;
}
