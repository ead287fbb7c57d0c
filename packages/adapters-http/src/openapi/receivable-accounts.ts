import { problemOf } from '../middleware/problem';
import { headerRef } from './headers';
import {
  created,
  idSchema,
  listOf,
  listParams,
  noContent,
  one,
  operation,
  param,
  pathId,
  pathResource,
  ref,
  withoutParam,
  type ResourceApi,
} from './operation-parts';
import { receivableAccountSchemas } from './receivable-account-schemas';

/** Receivable accounts (routes/receivable-account-routes.ts). */

const tag = 'Receivable accounts';
const read = 'receivable-accounts:read';
const write = 'receivable-accounts:write';
const accountListFilters = [
  ...listParams,
  param('clientId', 'Owner client', idSchema),
  param('associateId', 'Owner associate', idSchema),
  param('ownerType', 'CLIENT, ASSOCIATE or CLIENT_AND_ASSOCIATE'),
  param('clientTaxId', "The client's taxId (11 digits): the lookup of candidate accounts"),
  param('branchExternalCode', "The client's branch"),
  param('cvu', 'Exact, 22 digits'),
  param('alias', 'Exact'),
  param('status', 'PROVISIONING, ACTIVE (default) or DISABLED'),
  param('expand', 'owner: add names and tax ids of the owners'),
];
const accountInput = { clientId: 12, associateId: 7, currencyCode: 'ARS' };
const provisioning = {
  id: 31,
  cvu: null,
  alias: null,
  currencyCode: 'ARS',
  status: 'PROVISIONING',
  disabledReason: null,
  disabledMessage: null,
  owner: { type: 'CLIENT_AND_ASSOCIATE', clientId: 12, associateId: 7 },
  stats: { pendingAmount: 0 },
  creationDate: '2026-03-02T14:30:00.000Z',
  modificationDate: '2026-03-02T14:30:00.000Z',
};
const account = {
  ...provisioning,
  cvu: '0000003100098765432109',
  alias: 'norte.pereyra.31',
  status: 'ACTIVE',
  stats: { pendingAmount: 15000.5 },
  modificationDate: '2026-03-02T14:30:01.000Z',
};
const openRefusals = {
  'resource-not-found': 'no client or associate has the clientId or associateId',
  'resource-not-accessible': "the client or associate is another customer's",
  'receivable-account-already-exists': 'the owners have an account in this currency already (existingResourceId names it)',
  'receivable-account-requires-owner': 'neither clientId nor associateId',
  'owner-type-not-supported': "the customer's account template does not take this kind of owner",
  'associate-disabled': 'the associate is DISABLED',
} as const;

const paths = {
  '/v1/receivable-accounts': {
    get: operation({
      id: 'listReceivableAccounts',
      tag,
      summary: 'List receivable accounts',
      description: 'status defaults to ACTIVE. The lookup by clientTaxId that finds nothing answers 204, no body, X-Total-Count 0.',
      scope: read,
      parameters: accountListFilters,
      responses: {
        '200': listOf('ReceivableAccount', account),
        '204': { description: 'Lookup by clientTaxId found nothing', headers: { 'X-Total-Count': headerRef('X-Total-Count') } },
      },
    }),
    post: operation({
      id: 'createReceivableAccount',
      tag,
      summary: 'Open a receivable account',
      description:
        'Its CVU is requested from the banking provider asynchronously: the account starts PROVISIONING with cvu and ' +
        'alias null, and turns ACTIVE when the CVU is assigned (event receivable-account.activated).',
      scope: write,
      key: 'required',
      body: { schema: ref('ReceivableAccountInput'), example: accountInput },
      responses: { '201': created('ReceivableAccount', provisioning) },
      refusals: openRefusals,
    }),
  },
  '/v1/receivable-accounts/batches': {
    post: operation({
      id: 'createReceivableAccountBatch',
      tag,
      summary: 'Open many receivable accounts',
      description:
        'Up to 1000; each item stands alone, as if posted by itself (a malformed item is its own 400 validation): its result carries the status it would have had and the account or the Problem.',
      scope: write,
      key: 'required',
      body: { schema: ref('ReceivableAccountBatchRequest'), example: { items: [accountInput, { clientId: 13 }] } },
      responses: {
        '200': one('ReceivableAccountBatchResponse', 'One result per item, in order', {
          results: [
            { index: 0, status: 201, receivableAccount: provisioning },
            { index: 1, status: 404, error: problemOf('resource-not-found', 'client 13 not found') },
          ],
        }),
      },
    }),
  },
  '/v1/receivable-accounts/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getReceivableAccount',
      tag,
      summary: 'Get a receivable account',
      scope: read,
      parameters: [param('expand', 'owner: add names and tax ids of the owners')],
      responses: { '200': one('ReceivableAccount', 'Account', account) },
      refusals: pathResource('receivable account'),
    }),
    put: operation({
      id: 'updateReceivableAccount',
      tag,
      summary: 'Change the alias or bind an associate',
      scope: write,
      key: 'optional',
      body: { schema: ref('ReceivableAccountUpdate'), example: { alias: 'norte.lucia.31' } },
      responses: { '200': one('ReceivableAccount', 'Updated', { ...account, alias: 'norte.lucia.31' }) },
      refusals: {
        ...pathResource('receivable account'),
        'receivable-account-already-exists': 'binding the associate would give the owners a second account in this currency',
        'alias-already-in-use':
          'another account has this alias in any letter case, here or at any bank (the banking provider registers each alias for one ' +
          "account's CVU before it is stored), or it has the form of the aliases the service generates",
        'concurrent-modification':
          "another transaction changed the same rows at the same moment, or another request the account's alias while the provider " +
          'registered this one; read it again and retry',
        'external-provider-unavailable': 'the banking provider could not register the alias (down, or a bad answer); nothing was changed, retry',
        'external-provider-timeout': 'the banking provider did not register the alias in time; nothing was changed, retry',
        'receivable-account-owner-immutable': 'the account has an associate already and its CVU is active',
        'owner-type-not-supported': "binding the associate would make the account CLIENT_AND_ASSOCIATE, which the customer's account template does not take",
        'associate-disabled': 'the associate is DISABLED',
        'invalid-status-transition': 'an alias for an account that has no CVU yet, or a DISABLED one',
      },
    }),
    delete: operation({
      id: 'disableReceivableAccount',
      tag,
      summary: 'Disable a receivable account',
      description: 'Also stops its provisioning; disabledReason DISABLED_BY_CUSTOMER.',
      scope: write,
      key: 'optional',
      responses: { '204': noContent('Disabled') },
      refusals: { ...pathResource('receivable account'), 'invalid-status-transition': 'the account is DISABLED already' },
    }),
  },
  '/v1/receivable-accounts/{id}/activations': {
    parameters: [pathId],
    post: operation({
      id: 'activateReceivableAccount',
      tag,
      summary: 'Re-enable a DISABLED receivable account',
      description: 'ACTIVE again, or PROVISIONING again if it never got a CVU.',
      scope: write,
      key: 'optional',
      responses: { '200': one('ReceivableAccount', 'Re-enabled', account) },
      refusals: { ...pathResource('receivable account'), 'invalid-status-transition': 'the account is not DISABLED' },
    }),
  },
  '/v1/clients/{id}/receivable-accounts': {
    parameters: [pathId],
    get: operation({
      id: 'listClientReceivableAccounts',
      tag,
      summary: "List a client's receivable accounts",
      description: "The account list's filters, but the owner the path names (given, 400 validation).",
      scope: read,
      parameters: withoutParam(accountListFilters, 'clientId'),
      responses: { '200': listOf('ReceivableAccount', account) },
      refusals: pathResource('client'),
    }),
  },
  '/v1/associates/{id}/receivable-accounts': {
    parameters: [pathId],
    get: operation({
      id: 'listAssociateReceivableAccounts',
      tag,
      summary: "List an associate's receivable accounts",
      description: "The account list's filters, but the owner the path names (given, 400 validation).",
      scope: read,
      parameters: withoutParam(accountListFilters, 'associateId'),
      responses: { '200': listOf('ReceivableAccount', account) },
      refusals: pathResource('associate'),
    }),
  },
};

export const receivableAccountsApi: ResourceApi = {
  tags: [
    {
      name: tag,
      description:
        'Collection accounts, each with its own CVU from the banking provider, owned by a client, an associate or both; their receivables are paid into them',
    },
  ],
  paths,
  schemas: receivableAccountSchemas,
};

/** The examples the webhooks section's event payloads carry. */
export { account as accountExample };
