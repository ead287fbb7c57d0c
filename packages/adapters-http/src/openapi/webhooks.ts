import { DELIVERY_STATUSES, EVENT_TYPES, WEBHOOK_STATUSES } from '@rcs/domain';
import { created, listOf, listParams, noContent, pageParams, one, operation, param, pathId, pathResource, ref, type ResourceApi } from './operation-parts';
import { id, timestamp } from './shared-schemas';

/** Webhooks (routes/webhook-routes.ts). */

const tag = 'Webhooks';
const read = 'webhooks:read';
const write = 'webhooks:write';
const input = { url: 'https://erp.example/hooks/rcs', events: ['receivable.paid', 'movement.created'] };
const webhook = {
  id: 12,
  ...input,
  status: 'ACTIVE',
  secretMaskedTail: '...Q3E=',
  lastDeliveryAt: '2026-03-02T14:05:00.000Z',
  lastDeliveryStatus: 'SUCCESS',
  creationDate: '2026-03-02T14:00:00.000Z',
  modificationDate: '2026-03-02T14:00:00.000Z',
};
const withSecret = { ...webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw8kPpPmYqQ3E=' };
const delivery = {
  id: 301,
  webhookId: 12,
  eventId: 'evt_0Rz3kLp9aBcDeFgHiJkLmNoPq',
  eventType: 'webhook.test',
  attempt: 1,
  status: 'SUCCESS',
  responseCode: 200,
  durationMs: 84,
  failureReason: null,
  creationDate: '2026-03-02T14:05:00.000Z',
  attemptedAt: '2026-03-02T14:05:00.000Z',
  nextAttemptAt: null,
};
const subscriptionRefusals = {
  validation:
    'url is not an https URL (or, in production, its host does not resolve to a public address, or its nameservers failed just now), or events is empty',
  'invalid-event-type': 'events names an event type that does not exist',
} as const;
const conflict = (move: string) => ({ ...pathResource('webhook'), 'webhook-status-conflict': move });

const paths = {
  '/v1/webhooks': {
    get: operation({
      id: 'listWebhooks',
      tag,
      summary: 'List webhooks',
      scope: read,
      parameters: listParams,
      responses: { '200': listOf('Webhook', webhook) },
    }),
    post: operation({
      id: 'createWebhook',
      tag,
      summary: 'Register a webhook',
      description:
        'ACTIVE at once. The answer is the only one, with the rotation, that carries the signing `secret` (whsec_ and base64 of 32 random bytes): keep it. ' +
        'A replay under the same Idempotency-Key answers the same body, secret included, for 24 hours.',
      scope: write,
      key: 'optional',
      body: { schema: ref('WebhookInput'), example: input },
      responses: { '201': created('WebhookWithSecret', withSecret) },
      refusals: subscriptionRefusals,
    }),
  },
  '/v1/webhooks/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getWebhook',
      tag,
      summary: 'Get a webhook',
      description: 'The secret is not returned; secretMaskedTail shows its last 4 characters.',
      scope: read,
      responses: { '200': one('Webhook', 'Webhook', webhook) },
      refusals: pathResource('webhook'),
    }),
    put: operation({
      id: 'updateWebhook',
      tag,
      summary: 'Change the url, the events or both',
      description: 'A member left out keeps its value; a body with neither is 400 validation. The status and the secret do not change.',
      scope: write,
      key: 'optional',
      body: { schema: ref('WebhookUpdate'), example: { events: ['receivable.paid', 'receivable.settled'] } },
      responses: { '200': one('Webhook', 'Updated', webhook) },
      refusals: { ...pathResource('webhook'), ...subscriptionRefusals },
    }),
    delete: operation({
      id: 'deleteWebhook',
      tag,
      summary: 'Delete a webhook',
      description:
        'Nothing more is sent to it, and it and its delivery history are gone from every answer at once (404). The history is deleted from storage by the next event purge (EVENT_PURGE_CRON), in batches, so a deletion costs the same whatever the webhook sent.',
      scope: write,
      key: 'optional',
      responses: { '204': noContent('Deleted') },
      refusals: pathResource('webhook'),
    }),
  },
  '/v1/webhooks/{id}/pauses': {
    parameters: [pathId],
    post: operation({
      id: 'pauseWebhook',
      tag,
      summary: 'Pause deliveries',
      description: 'ACTIVE to PAUSED. Events that happen meanwhile are kept and delivered on activation.',
      scope: write,
      key: 'optional',
      responses: { '200': one('Webhook', 'Paused', { ...webhook, status: 'PAUSED' }) },
      refusals: conflict('the webhook is not ACTIVE'),
    }),
  },
  '/v1/webhooks/{id}/activations': {
    parameters: [pathId],
    post: operation({
      id: 'activateWebhook',
      tag,
      summary: 'Resume deliveries',
      description: 'PAUSED or FAILED to ACTIVE: what it holds is delivered.',
      scope: write,
      key: 'optional',
      responses: { '200': one('Webhook', 'Active again', webhook) },
      refusals: conflict('the webhook is ACTIVE already'),
    }),
  },
  '/v1/webhooks/{id}/secret-rotations': {
    parameters: [pathId],
    post: operation({
      id: 'rotateWebhookSecret',
      tag,
      summary: 'Rotate the signing secret',
      description:
        'Answers the webhook with its new `secret`. The secret it replaces keeps signing for 24 hours, as do those replaced ' +
        'before it within their own 24 hours: deliveries carry one signature per secret in webhook-signature, space separated, ' +
        'at most 5 (the current one and the 4 newest replaced ones), so verification with any of them passes while the new one is deployed.',
      scope: write,
      key: 'optional',
      responses: { '200': one('WebhookWithSecret', 'Rotated', withSecret) },
      refusals: pathResource('webhook'),
    }),
  },
  '/v1/webhooks/{id}/deliveries': {
    parameters: [pathId],
    post: operation({
      id: 'sendTestDelivery',
      tag,
      summary: 'Send a test event, or redeliver an event',
      description:
        '{eventType}: sends an event of type webhook.test ({id, type, createdAt, data: {webhook: {id, url}, eventType}}, eventType being the one asked for). ' +
        "{eventId}: sends a new attempt of that event (one of the customer's, still kept: see GET /v1/events; a test event is not stored and " +
        'cannot be redelivered: send another test), with its original webhook-id and ' +
        'body, numbered after its earlier attempts at this webhook; no automatic retry follows it. Either is sent now, signed like every delivery, ' +
        'whatever the status and subscriptions of the webhook, and answers how the endpoint took it: ' +
        'SUCCESS for a 2xx within the deadline (15 s), else FAILED with failureReason. The attempt is in the history and counts in the run of ' +
        'consecutive failures. Each call sends one attempt; a repeat under the same Idempotency-Key replays the answer to the first ' +
        'instead (sent while that attempt still waits on the endpoint, it waits too, up to 10 s, then 409 idempotency-request-in-progress).',
      scope: write,
      key: 'optional',
      body: { schema: ref('DeliveryRequestInput'), example: { eventType: 'receivable.paid' } },
      responses: { '200': one('WebhookDelivery', 'The attempt and its result', delivery) },
      refusals: {
        'resource-not-found': 'no webhook has this id, or no stored event has eventId (never, a test event, or purged past EVENT_RETENTION_DAYS)',
        'resource-not-accessible': "the webhook or the event is another customer's",
        'invalid-event-type': 'eventType is not an event type',
      },
    }),
    get: operation({
      id: 'listWebhookDeliveries',
      tag,
      summary: 'Delivery history',
      description: 'One entry per attempt, newest first by creationDate (when it entered the history, which never changes).',
      scope: read,
      parameters: [
        ...pageParams,
        param('fromDate', 'creationDate at or after (YYYY-MM-DD, that day in Buenos Aires, or a timestamp)'),
        param('toDate', 'creationDate at or before (inclusive; a bare date includes the whole day)'),
        param('status', DELIVERY_STATUSES.join(', '), { enum: DELIVERY_STATUSES }),
        param('eventType', 'Exact event type', { enum: EVENT_TYPES }),
        param('eventId', 'Exact (evt_...)'),
      ],
      responses: { '200': listOf('WebhookDelivery', delivery) },
      refusals: pathResource('webhook'),
    }),
  },
};

const url = { type: 'string', format: 'uri', maxLength: 2048, description: 'https:// only' } as const;
const events = { type: 'array', minItems: 1, items: { enum: EVENT_TYPES } } as const;
const webhookProperties = {
  id,
  url,
  events,
  status: { enum: WEBHOOK_STATUSES },
  secretMaskedTail: { type: 'string', description: 'The last 4 characters of the secret after three dots' },
  lastDeliveryAt: { type: ['string', 'null'], format: 'date-time' },
  lastDeliveryStatus: { enum: ['SUCCESS', 'FAILED', null] },
  creationDate: timestamp,
  modificationDate: timestamp,
} as const;
const webhookRequired = ['id', 'url', 'events', 'status', 'secretMaskedTail', 'lastDeliveryAt', 'lastDeliveryStatus', 'creationDate', 'modificationDate'];

const schemas = {
  WebhookInput: { type: 'object', required: ['url', 'events'], properties: { url, events } },
  WebhookUpdate: { type: 'object', properties: { url, events } },
  Webhook: { type: 'object', required: webhookRequired, properties: webhookProperties },
  WebhookWithSecret: {
    type: 'object',
    required: [...webhookRequired, 'secret'],
    properties: { ...webhookProperties, secret: { type: 'string', pattern: '^whsec_', description: 'Shown only here: keep it to verify signatures' } },
  },
  DeliveryRequestInput: {
    type: 'object',
    description: 'eventType (a test event) or eventId (a redelivery), one of them',
    oneOf: [
      { type: 'object', required: ['eventType'], properties: { eventType: { enum: EVENT_TYPES } } },
      { type: 'object', required: ['eventId'], properties: { eventId: { type: 'string', pattern: '^evt_', examples: ['evt_2xK9vQ7bLm3nP4rT6wY8zA'] } } },
    ],
  },
  WebhookDelivery: {
    type: 'object',
    required: [
      'id',
      'webhookId',
      'eventId',
      'eventType',
      'attempt',
      'status',
      'responseCode',
      'durationMs',
      'failureReason',
      'creationDate',
      'attemptedAt',
      'nextAttemptAt',
    ],
    properties: {
      id,
      webhookId: id,
      eventId: { type: 'string', pattern: '^evt_' },
      eventType: {
        enum: EVENT_TYPES,
        description: 'webhook.test marks a test delivery: its event is not stored, so GET /v1/events/{id} and a redelivery of it are 404',
      },
      attempt: { type: 'integer', minimum: 1 },
      status: { enum: DELIVERY_STATUSES },
      responseCode: { type: ['integer', 'null'], description: "The endpoint's HTTP status; null when none came" },
      durationMs: { type: ['integer', 'null'], description: 'Null when no answer was recorded' },
      failureReason: {
        type: ['string', 'null'],
        description:
          'Why a FAILED attempt failed. "no answer recorded: ..." marks an attempt whose sender stopped mid-call: the endpoint may have had it, ' +
          'and it was sent again as the next attempt (same webhook-id); it does not count in the run of failures',
      },
      creationDate: {
        ...timestamp,
        description:
          'When the attempt entered the history: queued, or for a retry when it is due as scheduled (ahead of now until then, as nextAttemptAt; an activation may send it earlier). It never changes, so the history keeps its order while attempts are made (an attempt made before this field existed shows when it was sent, and attemptedAt null)',
      },
      attemptedAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description:
          'When its send began (later than creationDate for one held while its webhook was paused, or sent late); null while PENDING, for one that expired unsent or whose sender stopped mid-call, and for one made before this field existed',
      },
      nextAttemptAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description:
          "When a PENDING attempt is due: a retry's time on the schedule, or earlier once an activation sends what its webhook holds; null once made, and once held (due while its webhook is PAUSED or FAILED, it waits for an activation)",
      },
    },
  },
} as const;

export const webhooksApi: ResourceApi = {
  tags: [{ name: tag, description: 'Endpoints of the integrator that receive signed events (Standard Webhooks), their secrets and delivery history' }],
  paths,
  schemas,
};
