import { PROBLEM_CONTENT_TYPE } from '../middleware/problem';
import { one, operation, type ResourceApi } from './operation-parts';
import { movementExample } from './money';
import { taxId } from './shared-schemas';

/** The banking provider's notifications (routes/bank-notification-routes.ts). */

const tag = 'Bank notifications';
const notification = {
  type: 'object',
  required: ['notificationId', 'cvu', 'amount', 'currencyCode', 'counterParty'],
  properties: {
    notificationId: { type: 'string', description: "The provider's transfer id; recorded once" },
    cvu: { type: 'string', pattern: '^\\d{22}$' },
    amount: { type: ['number', 'string'] },
    currencyCode: { const: 'ARS' },
    counterParty: {
      type: 'object',
      required: ['name', 'taxId'],
      properties: {
        name: { type: 'string' },
        taxId: { ...taxId, description: "The payer's, as the provider reports it: 11 digits (dashes and spaces dropped), prefix and check digit not judged" },
      },
    },
  },
};
const signature = {
  name: 'x-bank-signature',
  in: 'header',
  required: true,
  description: 'sha256=<hex HMAC-SHA256 of the raw body> under BANK_NOTIFICATION_SECRET',
  schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
};

const paths = {
  '/bank/notifications/incoming-transfers': {
    post: operation({
      id: 'receiveIncomingTransfer',
      tag,
      summary: 'Money arrived on a CVU',
      description:
        "For the banking provider, not for integrators: its signed notification of a transfer to a receivable account's CVU. " +
        `Served when BANK_NOTIFICATION_SECRET is set, and in sandbox under a random secret of its own, kept in its database, unless it is set. Errors are ${PROBLEM_CONTENT_TYPE} like the API's.`,
      scope: null,
      parameters: [signature],
      body: {
        schema: notification,
        example: {
          notificationId: 'trf-20260305-000123',
          cvu: '0000003100098765432109',
          amount: '15000.50',
          currencyCode: 'ARS',
          counterParty: { name: 'Almacén Don José', taxId: '20123456786' },
        },
      },
      responses: {
        '201': one('Movement', 'Recorded', movementExample),
        '200': one('Movement', 'Already recorded under this notificationId', movementExample),
      },
      refusals: {
        validation: 'the body is malformed',
        unauthorized: 'the signature is missing or wrong',
        'resource-not-found': 'no receivable account has that CVU',
        'idempotency-key-reuse': 'this notificationId was recorded with another CVU, amount or currency: nothing more is recorded',
        'receivable-account-not-active': 'the account is not ACTIVE',
        'unmatching-movement-currency-code': "currencyCode is not the account's",
        'internal-error': 'an unexpected failure; the provider retries',
      },
    }),
  },
};

export const bankNotificationsApi: ResourceApi = {
  tags: [{ name: tag, description: 'What the banking provider calls: notifications of money arriving on the CVUs it issued' }],
  paths,
};
