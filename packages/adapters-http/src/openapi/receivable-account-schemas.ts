import { DISABLED_REASONS, OWNER_TYPES, RECEIVABLE_ACCOUNT_STATUSES } from '@rcs/domain';
import { timestamp, nullableString, taxId, id, batchResponse } from './shared-schemas';

/** The receivable accounts' schemas (openapi/receivable-accounts.ts holds their operations). */

export const receivableAccountSchemas = {
  ReceivableAccountInput: {
    type: 'object',
    description: 'clientId and/or associateId (at least one: else 422 receivable-account-requires-owner)',
    properties: {
      clientId: { type: ['integer', 'null'], minimum: 1 },
      associateId: { type: ['integer', 'null'], minimum: 1 },
      currencyCode: { const: 'ARS' },
    },
  },
  ReceivableAccountUpdate: {
    type: 'object',
    properties: {
      alias: {
        type: 'string',
        pattern: '^[A-Za-z0-9.-]{6,20}$',
        description:
          'Only once the account has one (ACTIVE); unique across the service in any letter case. Aliases of the form the service ' +
          'generates (cta.0000042, cta.0000042-2, ra.0000042, main.cta.5, sub.cta.6, in any case) are reserved for the accounts they are ' +
          'generated for. Either is 409 alias-already-in-use',
      },
      associateId: {
        type: 'integer',
        minimum: 1,
        description: 'Binds an associate to an account that has none (or replaces it before the CVU is active); not null, an associate is never unbound',
      },
      clientId: {
        type: ['integer', 'null'],
        minimum: 1,
        description: "What the account was opened for: may be sent again, another of the customer's clients is 400 validation (another customer's, 403)",
      },
      currencyCode: { type: 'string', description: 'May be sent again, another value is 400 validation' },
      cvu: { description: "The banking provider's: derived, ignored if sent (SPEC), whatever its value" },
      owner: {
        type: 'object',
        description: 'As the account shows it: may be sent again, another owner is 400 validation (an associate is bound with associateId)',
      },
    },
  },
  ReceivableAccount: {
    type: 'object',
    required: ['id', 'cvu', 'alias', 'currencyCode', 'status', 'disabledReason', 'disabledMessage', 'owner', 'stats', 'creationDate', 'modificationDate'],
    properties: {
      id,
      cvu: { type: ['string', 'null'], pattern: '^\\d{22}$', description: 'null while PROVISIONING' },
      alias: {
        type: ['string', 'null'],
        description: 'Generated from the customer template when the CVU is assigned (with a suffix -2 to -9 if another account holds that alias)',
      },
      currencyCode: { const: 'ARS' },
      status: { enum: RECEIVABLE_ACCOUNT_STATUSES },
      disabledReason: {
        enum: [...DISABLED_REASONS, null],
        description:
          'Why a DISABLED account is disabled; null otherwise. PROVIDER_REJECTED: the banking provider refused to issue ' +
          'the CVU (for good; see disabledMessage). PROVISIONING_RETRIES_EXHAUSTED: the provider could not be reached or ' +
          'answered unusably PROVISIONING_MAX_ATTEMPTS times in a row. DISABLED_BY_CUSTOMER: DELETE. Activating the ' +
          'account clears it. Also in receivable-account.disabled events.',
      },
      disabledMessage: { type: ['string', 'null'], description: "The provider's own words when disabledReason is PROVIDER_REJECTED; null otherwise" },
      owner: {
        oneOf: [
          {
            type: 'object',
            required: ['type', 'id'],
            properties: { type: { enum: OWNER_TYPES.filter((type) => type !== 'CLIENT_AND_ASSOCIATE') }, id, displayName: { type: 'string' }, taxId },
          },
          {
            type: 'object',
            required: ['type', 'clientId', 'associateId'],
            properties: {
              type: { const: 'CLIENT_AND_ASSOCIATE' },
              clientId: id,
              associateId: id,
              client: {
                type: 'object',
                required: ['displayName', 'taxId', 'branchExternalCode'],
                properties: { displayName: { type: 'string' }, taxId, branchExternalCode: nullableString },
              },
              associate: { type: 'object', required: ['displayName', 'taxId'], properties: { displayName: { type: 'string' }, taxId } },
            },
          },
        ],
        description: 'displayName/taxId (or client/associate) only with expand=owner',
      },
      stats: {
        type: 'object',
        required: ['pendingAmount'],
        properties: {
          pendingAmount: {
            type: 'number',
            description:
              "Sum of the amounts of the account's PENDING receivables, each amount positive whatever its type (SPEC: the sign comes from receivableType; " +
              'a net figure is what a route settlement summary gives)',
          },
        },
      },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
  ReceivableAccountBatchRequest: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/ReceivableAccountInput' } } },
  },
  ReceivableAccountBatchResponse: batchResponse('receivableAccount', 'ReceivableAccount'),
} as const;
