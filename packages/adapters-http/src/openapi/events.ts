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
        'event is readable once its transaction commits, so one of a longer transaction (a 1,000-item batch, a settlement) ' +
        'can appear after events stamped later: to catch up, read from a few minutes before the newest createdAt you ' +
        'handled (fromDate) and skip by id the events you have, rather than from that createdAt itself.',
      scope: read,
      parameters: [
        ...pageParams,
        param('type', 'Exact event type', { enum: EVENT_TYPES }),
        param('fromDate', 'createdAt >= (YYYY-MM-DD, that day in Buenos Aires, or YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset; years 0001 to 9999)'),
        param('toDate', 'createdAt <= (inclusive; a bare date includes the whole day)'),
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
