import { json, problem, one } from './operation-parts';

/** The banking provider's notifications (routes/bank-notification-routes.ts). */

export const bankNotificationsPaths = {
  '/bank/notifications/incoming-transfers': {
    post: {
      operationId: 'receiveIncomingTransfer',
      summary: 'For the banking provider: money arrived on a CVU. Signed with x-bank-signature: sha256=<hex HMAC-SHA256 of the raw body> under BANK_NOTIFICATION_SECRET',
      security: [],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['notificationId', 'cvu', 'amount', 'currencyCode', 'counterParty'],
          properties: {
            notificationId: { type: 'string', description: "The provider's transfer id; recorded once" },
            cvu: { type: 'string', pattern: '^\\d{22}$' },
            amount: { type: ['number', 'string'] },
            currencyCode: { const: 'ARS' },
            counterParty: { type: 'object', required: ['name', 'taxId'], properties: { name: { type: 'string' }, taxId: { type: 'string' } } },
          },
        }),
      },
      responses: {
        '201': one('Movement', 'Recorded'),
        '200': one('Movement', 'Already recorded under this notificationId'),
        '400': problem('validation'),
        '401': problem('unauthorized: missing or wrong signature'),
        '404': problem('resource-not-found: no account has that CVU'),
        '422': problem('receivable-account-not-active, unmatching-movement-currency-code'),
      },
    },
  },
} as const;
