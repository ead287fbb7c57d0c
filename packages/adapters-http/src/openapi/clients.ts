import { ref, json, problem, authErrors, writeErrors, param, pathId, idempotencyKey, listParams, listOf, one, created } from './operation-parts';
import { timestamp, nullableString, taxId, id } from './shared-schemas';

/** Clients (routes/client-routes.ts). */

export const clientsPaths = {
  '/v1/clients': {
    get: {
      operationId: 'listClients',
      summary: 'List clients',
      parameters: [...listParams, param('taxId', '11 digits (dashes allowed)'), param('documentType', 'CUIT or CUIL'), param('branchExternalCode', 'Exact'), param('externalId', 'Exact')],
      responses: { '200': listOf('Client'), ...authErrors },
    },
    post: {
      operationId: 'createClient',
      summary: 'Create a client, or return the existing one with the same (documentType, taxId, branchExternalCode) unchanged',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('ClientInput')) },
      responses: { '201': created('Client'), '200': one('Client', 'Existing client, unchanged'), '422': problem('incomplete-branch'), ...writeErrors },
    },
  },
  '/v1/clients/{id}': {
    parameters: [pathId],
    get: { operationId: 'getClient', summary: 'Get a client', responses: { '200': one('Client', 'Client'), '404': problem('resource-not-found'), ...authErrors } },
    put: {
      operationId: 'replaceClient',
      summary: 'Replace a client (full body); taxId, documentType and branchExternalCode cannot change (400 validation)',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('ClientInput')) },
      responses: { '200': one('Client', 'Updated'), '404': problem('resource-not-found'), '422': problem('incomplete-branch'), ...writeErrors },
    },
  },
} as const;

export const clientsSchemas = {
  ClientInput: {
    type: 'object',
    required: ['businessName', 'taxId', 'documentType'],
    properties: {
      businessName: { type: 'string', maxLength: 200 },
      taxId: { type: 'string', description: 'CUIT/CUIL; dashes and spaces accepted; check digit verified' },
      documentType: { enum: ['CUIT', 'CUIL'] },
      email: { type: ['string', 'null'], format: 'email' },
      branchExternalCode: { ...nullableString, description: 'Set only for a branch; then branchDescription and branchReferenceAddress are required' },
      branchDescription: nullableString,
      branchReferenceAddress: nullableString,
      externalId: nullableString,
    },
  },
  Client: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'businessName', 'taxId', 'documentType', 'email', 'branchExternalCode', 'branchDescription', 'branchReferenceAddress', 'externalId', 'creationDate', 'modificationDate'],
    properties: {
      id,
      businessName: { type: 'string' },
      taxId,
      documentType: { enum: ['CUIT', 'CUIL'] },
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
