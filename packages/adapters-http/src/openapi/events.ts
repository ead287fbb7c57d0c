import { EVENT_TYPES } from '@rcs/domain';
import { listOf, one, operation, pageParams, param, pathParam, pathResource, type ResourceApi } from './operation-parts';
import { timestamp } from './shared-schemas';
import { receivableExample } from './receivables';

/** The events API (routes/event-routes.ts). */

const tag = 'Events';
const read = 'webhooks:read';
const eventExample = {
  id: 'evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY',
  type: 'receivable.created',
  createdAt: '2026-03-02T15:10:00.000Z',
  data: { receivable: receivableExample },
};

const paths = {
  '/v1/events': {
    get: operation({
      id: 'listEvents',
      tag,
      summary: 'List events',
      description:
        "The caller's events, newest first (by createdAt, then by the order they were recorded): the envelopes webhook " +
        'deliveries carry, so an integrator whose endpoint was down can catch up without asking for redeliveries. ' +
        'Events are kept for EVENT_RETENTION_DAYS (30 by default) once delivered. createdAt is when the change began and an ' +
        'event is readable once its transaction commits, so in this list one of a longer transaction (a 1,000-item batch, a ' +
        'settlement) can appear after events stamped later. To follow every event without missing one, use the feed: ' +
        'sort=feed lists them oldest first in an order in which none ever appears before one already given (an event whose ' +
        'transaction is still open comes after, once it commits), and its Link rel="next" is always there, from where ' +
        'the page ended: read it again to get what came since. The feed starts at its cursor, else at the first event ' +
        'created at or after fromDate, or earlier where a transaction still running could yet record one (committed events of transactions that began earlier may sit before it: start a few minutes ' +
        'early and skip by id those you have), else at the oldest held; fromDate only places the start (not with a ' +
        'cursor). It takes count, cursor and fromDate only; X-Total-Count is every event held. An ' +
        'event enters the feed once every transaction older than its own that has written has ended, on the whole database server: a ' +
        "long one (another application's on the same server too) holds the feed back, never out of order.",
      scope: read,
      parameters: [
        ...pageParams,
        param('sort', '-createdAt (the default: newest first) or feed (oldest first, to follow; see above)', { enum: ['-createdAt', 'feed'] }),
        param('type', 'Exact event type (not with sort=feed)', { enum: EVENT_TYPES }),
        param('fromDate', 'createdAt >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999)'),
        param('toDate', 'createdAt <= (inclusive; a bare date includes the whole day; not with sort=feed)'),
      ],
      responses: { '200': listOf('Event', eventExample) },
    }),
  },
  '/v1/events/{id}': {
    parameters: [pathParam('id', 'The event id (evt_…), the webhook-id of its deliveries')],
    get: operation({
      id: 'getEvent',
      tag,
      summary: 'Get an event',
      scope: read,
      responses: { '200': one('Event', 'Event', eventExample) },
      refusals: pathResource('event'),
    }),
  },
};

const schemas = {
  Event: {
    type: 'object',
    required: ['id', 'type', 'createdAt', 'data'],
    properties: {
      id: { type: 'string', pattern: '^evt_[0-9A-Za-z]+$', description: 'Unique; the webhook-id header of its deliveries, to deduplicate by' },
      type: { enum: EVENT_TYPES },
      createdAt: { ...timestamp, description: 'When the change happened' },
      data: {
        type: 'object',
        description:
          'The resource the event is about, as its GET answers it then: data.receivable (receivable.*), ' +
          'data.receivableAccount (receivable-account.*), data.movement (movement.created), data.settlement ' +
          '(settlement.completed), data.transfer (transfer.*)',
      },
    },
  },
} as const;

export const eventsApi: ResourceApi = {
  tags: [{ name: tag, description: 'What happened to your resources, as webhooks deliver it, kept for a while to read back' }],
  paths,
  schemas,
};
