import { Router } from 'express';
import { authOf, requireScope } from '../auth/authenticate';
import { PageQuery, pageOf } from '../dto/list-query';
import { nestedListQuery, parseId, parseInput, parseName } from '../dto/parse-input';
import { RouteSettlementBody, RouteSettlementListQuery } from '../dto/route-settlement-dto';
import { receivableResponse } from '../mappers/receivable-response';
import { routeSettlementResponse } from '../mappers/route-settlement-response';
import type { HttpContext } from './http-context';
import { upserted } from './answer';
import { keyedBody, sendPage, validBody } from './respond';

export function routeSettlementRoutes({ app, keys }: HttpContext): Router {
  const router = Router();
  const read = requireScope('route-settlements:read');
  const write = requireScope('route-settlements:write');

  router.get('/route-settlements', read, async (req, res) => {
    const { associateId, routeCode, fromDate, toDate, ...page } = parseInput(RouteSettlementListQuery, req.query, 'query');
    const filter = { customerId: authOf(req).customerId, associateId, routeCode, fromDate, toDate };
    sendPage(res, await app.routeSettlements.list.execute({ filter, page: pageOf(page) }), routeSettlementResponse);
  });

  router.post(
    '/route-settlements',
    write,
    ...keyedBody(keys, 'optional', validBody(RouteSettlementBody), async (req, app) => {
      const customerId = authOf(req).customerId;
      const { record, created } = await app.routeSettlements.register.execute({ customerId, ...(req.body as RouteSettlementBody) });
      return upserted(created, `/v1/route-settlements/${encodeURIComponent(record.settlement.routeCode)}`, routeSettlementResponse(record));
    }),
  );

  router.get('/route-settlements/:routeCode', read, async (req, res) => {
    res.json(
      routeSettlementResponse(
        await app.routeSettlements.get.execute({ customerId: authOf(req).customerId, routeCode: parseName(req.params.routeCode, 'routeCode') }),
      ),
    );
  });

  // A nested list asks for the scope of what it lists (CONTRACT "Scopes"): these are receivables.
  router.get('/route-settlements/:routeCode/receivables', requireScope('receivables:read'), async (req, res) => {
    const query = parseInput(PageQuery, req.query, 'query');
    const input = { customerId: authOf(req).customerId, routeCode: parseName(req.params.routeCode, 'routeCode'), page: pageOf(query) };
    sendPage(res, await app.routeSettlements.receivables.execute(input), receivableResponse);
  });

  router.get('/associates/:id/route-settlements', read, async (req, res) => {
    const { routeCode, fromDate, toDate, ...page } = nestedListQuery(RouteSettlementListQuery, req.query, 'associateId');
    const filter = { customerId: authOf(req).customerId, routeCode, fromDate, toDate };
    sendPage(res, await app.routeSettlements.list.execute({ filter, page: pageOf(page), ofAssociate: parseId(req.params.id) }), routeSettlementResponse);
  });

  return router;
}
