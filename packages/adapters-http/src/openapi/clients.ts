import { DOCUMENT_TYPES } from '@rcs/domain';
import { created, listOf, listParams, one, operation, param, pathId, pathResource, ref, type ResourceApi } from './operation-parts';
import { timestamp, nullableString, taxId, taxIdInput, id, KEY_TEXT_RULE, externalIdInput } from './shared-schemas';

/** Clients (routes/client-routes.ts). */

const tag = 'Clients';
const clientInput = {
  businessName: 'Distribuidora Norte SA',
  taxId: '30-71234567-1',
  documentType: 'CUIT',
  email: 'cobranzas@norte.example',
  branchExternalCode: null,
  branchDescription: null,
  branchReferenceAddress: null,
  externalId: 'ERP-1001',
};
const client = { id: 12, ...clientInput, taxId: '30712345671', creationDate: '2026-03-02T13:45:00.000Z', modificationDate: '2026-03-02T13:45:00.000Z' };
const body = { schema: ref('ClientInput'), example: clientInput };
const branchRule = { 'incomplete-branch': 'branchExternalCode is set without branchDescription and branchReferenceAddress (or with one blank)' } as const;

const paths = {
  '/v1/clients': {
    get: operation({
      id: 'listClients',
      tag,
      summary: 'List clients',
      scope: 'clients:read',
      parameters: [
        ...listParams,
        param('taxId', '11 digits (dashes allowed)'),
        param('documentType', 'CUIT or CUIL'),
        param('branchExternalCode', 'Exact'),
        param('externalId', 'Exact'),
      ],
      responses: { '200': listOf('Client', client) },
    }),
    post: operation({
      id: 'createClient',
      tag,
      summary: 'Create a client, or find it',
      description: 'Returns the existing client with the same (documentType, taxId, branchExternalCode) unchanged (200) instead of creating another.',
      scope: 'clients:write',
      key: 'optional',
      body,
      responses: { '201': created('Client', client), '200': one('Client', 'Existing client, unchanged', client) },
      refusals: branchRule,
    }),
  },
  '/v1/clients/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getClient',
      tag,
      summary: 'Get a client',
      scope: 'clients:read',
      responses: { '200': one('Client', 'Client', client) },
      refusals: pathResource('client'),
    }),
    put: operation({
      id: 'replaceClient',
      tag,
      summary: 'Replace a client',
      description: 'A full body; taxId, documentType and branchExternalCode cannot change (400 validation).',
      scope: 'clients:write',
      key: 'optional',
      body,
      responses: { '200': one('Client', 'Updated', client) },
      refusals: { ...pathResource('client'), ...branchRule },
    }),
  },
};

const schemas = {
  ClientInput: {
    type: 'object',
    required: ['businessName', 'taxId', 'documentType'],
    properties: {
      businessName: { type: 'string', maxLength: 200 },
      taxId: taxIdInput,
      documentType: { enum: DOCUMENT_TYPES },
      email: { type: ['string', 'null'], format: 'email' },
      branchExternalCode: {
        ...nullableString,
        description: `Set only for a branch; then branchDescription and branchReferenceAddress are required, not blank; ${KEY_TEXT_RULE}`,
      },
      branchDescription: nullableString,
      branchReferenceAddress: nullableString,
      externalId: externalIdInput,
    },
  },
  Client: {
    type: 'object',
    required: [
      'id',
      'businessName',
      'taxId',
      'documentType',
      'email',
      'branchExternalCode',
      'branchDescription',
      'branchReferenceAddress',
      'externalId',
      'creationDate',
      'modificationDate',
    ],
    properties: {
      id,
      businessName: { type: 'string' },
      taxId,
      documentType: { enum: DOCUMENT_TYPES },
      email: nullableString,
      branchExternalCode: nullableString,
      branchDescription: nullableString,
      branchReferenceAddress: nullableString,
      externalId: nullableString,
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
} as const;

export const clientsApi: ResourceApi = {
  tags: [{ name: tag, description: "The integrator's customers who owe money: companies or people by CUIT/CUIL, optionally one branch of them" }],
  paths,
  schemas,
};
