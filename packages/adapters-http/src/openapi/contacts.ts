import { created, listOf, noContent, one, operation, param, pageParams, pathId, pathResource, ref, type Refusals, type ResourceApi } from './operation-parts';
import { timestamp, nullableString, taxId, taxIdInput, id } from './shared-schemas';

/** Recipients (routes/contact-routes.ts). */

const tag = 'Contacts';
const contactInput = { name: 'Distribuidora Norte SA', taxId: '30-71234567-1', alias: 'norte.pagos' };
const contact = {
  id: 31,
  name: 'Distribuidora Norte SA',
  taxId: '30712345671',
  cbuCvu: '0070999030004123456787',
  alias: 'norte.pagos',
  entity: 'Banco de Galicia y Buenos Aires',
  creationDate: '2026-03-02T13:45:00.000Z',
  modificationDate: '2026-03-02T13:45:00.000Z',
};
const body = { schema: ref('ContactInput'), example: contactInput };
const destinationRules: Refusals = {
  'duplicated-contact': 'another recipient of the customer has this cbuCvu, or this alias in any letter case (existingResourceId names it)',
  'external-provider-unavailable': 'the banking provider could not resolve the alias (down, or a bad answer); nothing was stored, retry',
  'external-provider-timeout': 'the banking provider did not resolve the alias in time; nothing was stored, retry',
  'receivable-account-not-transfer-enabled': 'the cbuCvu or alias names your own receivable account, which no transfer pays',
};
const unknownAlias = 'no account has the alias, here or at the banking provider';
const resolution =
  'Send cbuCvu (22 digits, both check digits verified), alias (6 to 20 letters, digits, ".", "-"), or both. An alias of an account of this ' +
  'service names that account (its CVU); any other is resolved at the banking provider before anything is stored, which fills cbuCvu and entity; with both, the alias must name that cbuCvu (else 400 ' +
  'validation on alias). With cbuCvu alone, entity comes from the table of Argentine banks (first 3 digits) and wallets (CVU: 000 and a ' +
  '4-digit PSP code), and alias stays null. A recipient no transfer could pay is refused as a transfer to it is: a current ' +
  "account of this service (yours: move money with an INTERNAL_TRANSFER) or another customer's receivable account that is not ACTIVE " +
  'is 400 validation on cbuCvu (or on alias when one was sent), your own receivable account 422.';

const paths = {
  '/v1/contacts': {
    get: operation({
      id: 'listContacts',
      tag,
      summary: 'List recipients',
      scope: 'contacts:read',
      parameters: [...pageParams, param('taxId', '11 digits (dashes allowed)'), param('alias', 'Exact, in any letter case')],
      responses: { '200': listOf('Contact', contact) },
    }),
    post: operation({
      id: 'createContact',
      tag,
      summary: 'Save a recipient',
      description: resolution,
      scope: 'contacts:write',
      key: 'optional',
      body,
      responses: { '201': created('Contact', contact) },
      refusals: { ...destinationRules, 'resource-not-found': unknownAlias },
    }),
  },
  '/v1/contacts/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getContact',
      tag,
      summary: 'Get a recipient',
      scope: 'contacts:read',
      responses: { '200': one('Contact', 'Recipient', contact) },
      refusals: pathResource('recipient'),
    }),
    put: operation({
      id: 'replaceContact',
      tag,
      summary: 'Replace a recipient',
      description: `A full body, as for creation; an alias left out is dropped. ${resolution}`,
      scope: 'contacts:write',
      key: 'optional',
      body,
      responses: { '200': one('Contact', 'Replaced', contact) },
      refusals: { ...pathResource('recipient'), ...destinationRules, 'resource-not-found': `no recipient has this id, or ${unknownAlias}` },
    }),
    delete: operation({
      id: 'deleteContact',
      tag,
      summary: 'Delete a recipient',
      description: 'Deleted for good: its cbuCvu and alias are free for a new recipient; transfers already made keep their destination.',
      scope: 'contacts:write',
      key: 'optional',
      responses: { '204': noContent('Deleted') },
      refusals: pathResource('recipient'),
    }),
  },
};

const schemas = {
  ContactInput: {
    type: 'object',
    required: ['name', 'taxId'],
    description: 'cbuCvu, alias or both',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200, description: 'Name or legal name' },
      taxId: taxIdInput,
      cbuCvu: { type: ['string', 'null'], pattern: '^\\d{22}$', description: 'null is the same as leaving it out' },
      alias: { type: ['string', 'null'], pattern: '^[A-Za-z0-9.-]{6,20}$', description: 'null is the same as leaving it out' },
    },
  },
  Contact: {
    type: 'object',
    required: ['id', 'name', 'taxId', 'cbuCvu', 'alias', 'entity', 'creationDate', 'modificationDate'],
    properties: {
      id,
      name: { type: 'string' },
      taxId,
      cbuCvu: { type: 'string', pattern: '^\\d{22}$' },
      alias: { ...nullableString, description: 'As given; null when the recipient was saved by cbuCvu alone' },
      entity: { type: 'string', description: 'The bank or wallet that keeps the account (read-only)' },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
} as const;

export const contactsApi: ResourceApi = {
  tags: [{ name: tag, description: "Recipients: the customer's saved transfer destinations, by CBU/CVU or alias" }],
  paths,
  schemas,
};
