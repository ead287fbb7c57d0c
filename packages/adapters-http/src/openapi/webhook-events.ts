import { EVENT_TYPES, type EventType } from '@rcs/domain';
import { ref } from './operation-parts';
import { timestamp } from './shared-schemas';
import { receivableExample } from './receivables';
import { movementExample, settlementExample } from './money';
import { accountExample } from './receivable-accounts';
import { transferExample } from './transfers';

/**
 * The OpenAPI 3.1 top-level `webhooks`: one request per event type, as the service POSTs it to a subscribed
 * endpoint. The body is the envelope GET /v1/events answers; `data` holds the resource the type names.
 */

/** Each event type's data member: the resource under its name, as its GET answers it when the event happened. */
const DATA: Readonly<Record<EventType, { member: string; schema: object; example: unknown }>> = {
  'receivable-account.activated': { member: 'receivableAccount', schema: ref('ReceivableAccount'), example: accountExample },
  'receivable-account.disabled': {
    member: 'receivableAccount',
    schema: ref('ReceivableAccount'),
    example: { ...accountExample, status: 'DISABLED', disabledReason: 'DISABLED_BY_CUSTOMER' },
  },
  'receivable.created': { member: 'receivable', schema: ref('Receivable'), example: receivableExample },
  'receivable.paid': { member: 'receivable', schema: ref('Receivable'), example: { ...receivableExample, status: 'PAID' } },
  'receivable.reopened': { member: 'receivable', schema: ref('Receivable'), example: { ...receivableExample, status: 'PENDING' } },
  'receivable.expired': { member: 'receivable', schema: ref('Receivable'), example: { ...receivableExample, status: 'EXPIRED' } },
  'receivable.disabled': { member: 'receivable', schema: ref('Receivable'), example: { ...receivableExample, status: 'DISABLED' } },
  'receivable.settled': { member: 'receivable', schema: ref('Receivable'), example: { ...receivableExample, status: 'SETTLED' } },
  'movement.created': { member: 'movement', schema: ref('Movement'), example: movementExample },
  'settlement.completed': { member: 'settlement', schema: ref('Settlement'), example: settlementExample },
  'transfer.completed': { member: 'transfer', schema: ref('Transfer'), example: { ...transferExample, status: 'COMPLETED' } },
  'transfer.failed': { member: 'transfer', schema: ref('Transfer'), example: { ...transferExample, status: 'FAILED' } },
  'webhook.test': {
    member: 'webhook',
    schema: {
      type: 'object',
      required: ['id', 'url'],
      properties: { id: { type: 'integer', minimum: 1 }, url: { type: 'string', format: 'uri' } },
    },
    example: { id: 12, url: 'https://erp.example/hooks' },
  },
};

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

const signatureHeaders = [
  header('webhook-id', "The event's id (the body's id): the same on every attempt and redelivery, to deduplicate by", 'evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY'),
  header('webhook-timestamp', 'Unix seconds when this attempt was signed; reject one too far from your clock (standardwebhooks: 5 minutes)', '1772464200'),
  header(
    'webhook-signature',
    'Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the base64-decoded whsec_ secret>; during the 24 h after a ' +
      'rotation one per secret still in its grace window (at most 5), space separated. Verify with the standardwebhooks package.',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

function eventRequest(type: EventType) {
  const { member, schema, example } = DATA[type];
  const data =
    type === 'webhook.test'
      ? { type: 'object', required: [member, 'eventType'], properties: { [member]: schema, eventType: { enum: EVENT_TYPES } } }
      : { type: 'object', required: [member], properties: { [member]: schema } };
  const body = {
    id: 'evt_0Mx3kZ9aQ7bT2cV5nW8pL1rY',
    type,
    createdAt: '2026-03-02T15:10:00.000Z',
    data: type === 'webhook.test' ? { [member]: example, eventType: 'receivable.paid' } : { [member]: example },
  };
  return {
    post: {
      operationId: `${type.replace(/[.-](\w)/g, (_all, letter: string) => letter.toUpperCase())}Event`,
      tags: ['Webhooks'],
      summary: `${type} delivered to a subscribed endpoint`,
      description:
        'Sent to every ACTIVE webhook subscribed to this type (a PAUSED or FAILED one holds it for its activation, up to ' +
        'WEBHOOK_RETENTION_HOURS). Answer 2xx within 15 s; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h ' +
        'after each failure. Delivery is at least once: deduplicate by webhook-id.',
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['id', 'type', 'createdAt', 'data'],
              properties: { id: { type: 'string', pattern: '^evt_[0-9A-Za-z]+$' }, type: { const: type }, createdAt: timestamp, data },
            },
            example: body,
          },
        },
      },
      responses: {
        '2XX': { description: 'Received: the attempt is SUCCESS' },
        '400': { description: 'Refused by the endpoint (a bad signature, say): the attempt is FAILED and retried' },
        default: { description: 'Any other answer, a redirect, a timeout or a refused connection: the attempt is FAILED and retried' },
      },
    },
  };
}

export const webhookEvents = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventRequest(type)]));
