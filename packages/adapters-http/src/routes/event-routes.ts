import { Router } from 'express';
import { eventEnvelope, ValidationError } from '@rcs/domain';
import { authOf, requireScope } from '../auth/authenticate';
import { EventFeedQuery, EventListQuery } from '../dto/event-dto';
import { boundary, DEFAULT_COUNT, pageOf } from '../dto/list-query';
import { parseInput, parseName } from '../dto/parse-input';
import type { HttpContext } from './http-context';
import { sendFeed, sendPage } from './respond';

/** The events API (beyond SPEC, as Stripe and Svix have it): what the webhooks send, for catching up. */
export function eventRoutes({ app }: HttpContext): Router {
  const router = Router();
  const read = requireScope('webhooks:read');

  router.get('/events', read, async (req, res) => {
    if (req.query.sort === 'feed') {
      const feed = parseInput(EventFeedQuery, req.query, 'query');
      // Each places where the feed starts: both at once is a question with two answers.
      if (feed.cursor !== undefined && feed.fromDate !== undefined) throw ValidationError.of('fromDate', 'cannot be given with cursor');
      const filter = { customerId: authOf(req).customerId, ...(feed.fromDate ? { fromDate: boundary(feed.fromDate, 'start') } : {}) };
      const page = await app.events.follow.execute({ filter, after: feed.cursor?.position, count: feed.count ?? DEFAULT_COUNT });
      return sendFeed(res, page, eventEnvelope);
    }
    const query = parseInput(EventListQuery, req.query, 'query');
    const filter = {
      customerId: authOf(req).customerId,
      type: query.type,
      ...(query.fromDate ? { fromDate: boundary(query.fromDate, 'start') } : {}),
      ...(query.toDate ? { toDate: boundary(query.toDate, 'end') } : {}),
    };
    sendPage(res, await app.events.list.execute({ filter, page: pageOf(query) }), eventEnvelope);
  });

  router.get('/events/:id', read, async (req, res) => {
    res.json(eventEnvelope(await app.events.get.execute({ customerId: authOf(req).customerId, eventId: parseName(req.params.id, 'id') })));
  });

  return router;
}
