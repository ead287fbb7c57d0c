import { TRANSFER_STATUSES, TRANSFER_TYPES } from '@rcs/domain';
import { created, idSchema, listOf, listParams, one, operation, param, pathId, pathResource, ref, type ResourceApi } from './operation-parts';
import { externalIdInput, id, nullableDate, nullableString, taxId, taxIdInput, timestamp } from './shared-schemas';

/** Transfers out of current accounts (routes/transfer-routes.ts). */

const tag = 'Transfers';
const read = 'transfers:read';
const write = 'transfers:write';
const approve = 'transfers:approve';

const transfer = {
  id: 301,
  type: 'OUTGOING_TRANSFER',
  status: 'PENDING',
  sourceAccountId: 2,
  amount: 250000.5,
  currencyCode: 'ARS',
  destination: { cbuCvu: '0110599500000123456784', alias: null, accountId: null, counterParty: { name: 'Proveedor SA', taxId: '30712345671' } },
  contactId: null,
  description: 'Pago factura A-0001-00001234',
  externalId: 'ERP-PAY-0042',
  scheduledDate: null,
  creationDate: '2026-03-05T14:00:00.000Z',
  modificationDate: '2026-03-05T14:00:00.000Z',
  executionDate: null,
  failureReason: null,
};
const awaiting = { ...transfer, status: 'PENDING_APPROVAL', scheduledDate: '2026-03-10' };
const cancelled = { ...awaiting, status: 'CANCELLED', modificationDate: '2026-03-05T15:00:00.000Z' };
const approved = { ...awaiting, status: 'SCHEDULED', modificationDate: '2026-03-05T15:00:00.000Z' };
const approvalStates = {
  ...pathResource('transfer'),
  'invalid-status-transition': 'the transfer is not PENDING_APPROVAL (only transfers of a customer with approval control wait for approval)',
};

const paths = {
  '/v1/transfers': {
    get: operation({
      id: 'listTransfers',
      tag,
      summary: 'List transfers',
      description: "The caller's transfers, newest first. A sourceAccountId of another customer's matches nothing.",
      scope: read,
      parameters: [
        ...listParams,
        param('type', TRANSFER_TYPES.join(' or '), { enum: TRANSFER_TYPES }),
        param('status', 'Exact', { enum: TRANSFER_STATUSES }),
        param('sourceAccountId', 'Exact', idSchema),
        param('externalId', 'Exact'),
      ],
      responses: { '200': listOf('Transfer', transfer) },
    }),
    post: operation({
      id: 'createTransfer',
      tag,
      summary: 'Create a transfer',
      description: [
        'OUTGOING_TRANSFER pays a third party: destination.cbuCvu (22 digits, both check digits verified) or destination.alias ' +
          "(6 to 20 of letters, digits, '.', '-'), and destination.counterParty {name, taxId}. INTERNAL_TRANSFER moves money to " +
          'another current account of the caller: destination.accountId only; the answer carries that account’s CVU and alias.',
        'An alias is resolved when the transfer is created, before anything is stored (one of this service’s accounts by the service, any other at the banking provider): the transfer ' +
          'pays the account found, and its answer shows that cbuCvu; one sent with a cbuCvu must name the same account (400 otherwise).',
        'Instead of destination, an OUTGOING_TRANSFER may name one of the caller’s recipients by contactId (never both): its ' +
          'CBU/CVU, alias, name and taxId are copied into the transfer, which answers with that destination and the contactId; ' +
          'editing or deleting the recipient later never changes the transfer.',
        'The first status: PENDING_APPROVAL when the customer has approval control (a second credential approves it); ' +
          'otherwise SCHEDULED when a scheduledDate is given (today in Buenos Aires included: cancellable until the worker takes it that day), else PENDING. A scheduledDate already past is 400.',
        'The balance is not checked here: the transfer worker checks and debits it atomically when it pays, and a transfer ' +
          'the balance cannot cover then ends FAILED with failureReason insufficient-balance.',
        'Send an Idempotency-Key (SPEC: a creation should carry one; the service accepts one without): a creation retried under the same key pays once, one retried without a key is a second transfer.',
      ].join('\n\n'),
      scope: write,
      key: 'optional',
      body: {
        schema: ref('TransferInput'),
        example: {
          type: 'OUTGOING_TRANSFER',
          sourceAccountId: 2,
          amount: '250000.50',
          currencyCode: 'ARS',
          destination: { cbuCvu: '0110599500000123456784', counterParty: { name: 'Proveedor SA', taxId: '30-71234567-1' } },
          description: 'Pago factura A-0001-00001234',
          externalId: 'ERP-PAY-0042',
        },
      },
      responses: { '201': created('Transfer', transfer) },
      refusals: {
        'resource-not-found':
          'no account has the sourceAccountId or destination.accountId, no recipient has the contactId, or no account has the destination.alias at the banking provider',
        'external-provider-unavailable':
          'a destination naming an alias is resolved at the banking provider, which could not answer (down, or a bad answer); nothing was stored, retry',
        'external-provider-timeout': 'the banking provider did not resolve the alias in time; nothing was stored, retry',
        'resource-not-accessible': "the source or destination account, or the recipient, is another customer's",
        'receivable-account-not-transfer-enabled':
          'the sourceAccountId or destination.accountId names a receivable account, not a current account; or an OUTGOING_TRANSFER’s CVU, alias or recipient names one of the caller’s',
        'unmatching-transfer-currency-code': "currencyCode is not the source account's",
        'source-account-not-active': 'the source account is not ACTIVE',
        'equal-origin-destination': 'the destination is the source account itself (by id, CBU/CVU or alias)',
      },
    }),
  },
  '/v1/transfers/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getTransfer',
      tag,
      summary: 'Get a transfer',
      scope: read,
      responses: { '200': one('Transfer', 'Transfer', transfer) },
      refusals: pathResource('transfer'),
    }),
  },
  '/v1/transfers/{id}/cancellations': {
    parameters: [pathId],
    post: operation({
      id: 'cancelTransfer',
      tag,
      summary: 'Cancel a transfer',
      description: 'Only a SCHEDULED or PENDING_APPROVAL transfer: once PENDING the worker may be paying it.',
      scope: write,
      key: 'optional',
      responses: { '200': one('Transfer', 'Cancelled', cancelled) },
      refusals: { ...pathResource('transfer'), 'transfer-not-cancelable': 'the transfer is not SCHEDULED or PENDING_APPROVAL' },
    }),
  },
  '/v1/transfers/{id}/approvals': {
    parameters: [pathId],
    post: operation({
      id: 'approveTransfer',
      tag,
      summary: 'Approve a transfer',
      description:
        'Four eyes: a PENDING_APPROVAL transfer is approved by another credential than the one that created it. ' +
        'It becomes SCHEDULED when its scheduledDate is after today in Buenos Aires, else PENDING (CONTRACT): approved on its day or later, it is due at once.',
      scope: approve,
      key: 'optional',
      responses: { '200': one('Transfer', 'Approved', approved) },
      refusals: { ...approvalStates, forbidden: 'this credential created the transfer; another must approve it' },
    }),
  },
  '/v1/transfers/{id}/rejections': {
    parameters: [pathId],
    post: operation({
      id: 'rejectTransfer',
      tag,
      summary: 'Reject a transfer',
      description: 'A PENDING_APPROVAL transfer becomes CANCELLED. Its creator may reject it too (it could cancel it as well).',
      scope: approve,
      key: 'optional',
      responses: { '200': one('Transfer', 'Rejected', cancelled) },
      refusals: approvalStates,
    }),
  },
};

const counterParty = { type: 'object', required: ['name', 'taxId'], properties: { name: { type: 'string', maxLength: 200 }, taxId } } as const;
const counterPartyInput = {
  type: ['object', 'null'],
  required: ['name', 'taxId'],
  properties: { name: { type: 'string', maxLength: 200 }, taxId: taxIdInput },
} as const;

const schemas = {
  TransferInput: {
    type: 'object',
    required: ['type', 'sourceAccountId', 'amount', 'currencyCode'],
    properties: {
      type: { enum: TRANSFER_TYPES },
      sourceAccountId: { ...id, description: 'A current account of the caller (MAIN or SUB)' },
      amount: { type: ['number', 'string'], description: 'Positive, at most 2 decimals, at most 9999999999999.99 (a decimal string is accepted)' },
      currencyCode: { const: 'ARS' },
      destination: {
        type: ['object', 'null'],
        description: 'Required unless contactId is given. OUTGOING_TRANSFER: cbuCvu and/or alias, and counterParty. INTERNAL_TRANSFER: accountId only.',
        properties: {
          cbuCvu: { ...nullableString, pattern: '^\\d{22}$' },
          alias: { ...nullableString, pattern: '^[A-Za-z0-9.-]{6,20}$' },
          accountId: { type: ['integer', 'null'], minimum: 1 },
          counterParty: counterPartyInput,
        },
      },
      contactId: { type: ['integer', 'null'], minimum: 1, description: 'OUTGOING_TRANSFER only: pay this recipient of yours (instead of destination)' },
      description: { ...nullableString, maxLength: 500 },
      externalId: externalIdInput,
      scheduledDate: { ...nullableDate, description: 'The day (Buenos Aires) to pay it on; null or absent: as soon as possible' },
    },
  },
  Transfer: {
    type: 'object',
    required: [
      'id',
      'type',
      'status',
      'sourceAccountId',
      'amount',
      'currencyCode',
      'destination',
      'contactId',
      'description',
      'externalId',
      'scheduledDate',
      'creationDate',
      'modificationDate',
      'executionDate',
      'failureReason',
    ],
    properties: {
      id,
      type: { enum: TRANSFER_TYPES },
      status: { enum: TRANSFER_STATUSES },
      sourceAccountId: id,
      amount: { type: 'number' },
      currencyCode: { type: 'string' },
      destination: {
        type: 'object',
        description: 'Copied into the transfer when it was created: later changes to a recipient never change it',
        required: ['cbuCvu', 'alias', 'accountId', 'counterParty'],
        properties: {
          cbuCvu: nullableString,
          alias: nullableString,
          accountId: { type: ['integer', 'null'] },
          counterParty: { ...counterParty, type: ['object', 'null'] },
        },
      },
      contactId: { type: ['integer', 'null'], description: 'The recipient the destination came from, if any' },
      description: nullableString,
      externalId: nullableString,
      scheduledDate: nullableDate,
      creationDate: timestamp,
      modificationDate: timestamp,
      executionDate: { type: ['string', 'null'], format: 'date-time', description: 'When the money left; null until COMPLETED' },
      failureReason: {
        ...nullableString,
        description:
          'Set only when FAILED: insufficient-balance, source-account-not-active, destination-account-not-active, destination-not-found (an alias no account has), ' +
          'destination-not-payable: <why> (the CBU/CVU now names an account of this service that takes no payment from it), destination-rejected (by the provider, debit returned) ' +
          'or provider-unavailable (never taken by the provider after every attempt, debit returned)',
      },
    },
  },
} as const;

export const transfersApi: ResourceApi = {
  tags: [{ name: tag, description: 'Money out of current accounts: to third parties (OUTGOING_TRANSFER) or between own accounts (INTERNAL_TRANSFER)' }],
  paths,
  schemas,
};

/** The example the webhooks section's transfer payloads carry. */
export { transfer as transferExample };
