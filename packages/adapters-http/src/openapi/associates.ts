import { ref, json, problem, authErrors, writeErrors, param, idSchema, pathId, idempotencyKey, listParams, listOf, one, created } from './operation-parts';
import { timestamp, nullableString, taxId, id } from './shared-schemas';

/** Associates (routes/associate-routes.ts). */

export const associatesPaths = {
  '/v1/associates': {
    get: {
      operationId: 'listAssociates',
      summary: 'List associates (status defaults to ACTIVE)',
      parameters: [...listParams, param('taxId', '11 digits'), param('documentNumber', 'Exact'), param('type', 'Exact'), param('parentAssociateId', 'Supervisor id', idSchema), param('status', 'ACTIVE (default) or DISABLED')],
      responses: { '200': listOf('Associate'), ...authErrors },
    },
    post: {
      operationId: 'createAssociate',
      summary: 'Create an associate, or return the ACTIVE one with that taxId (a DISABLED one gives 422 associate-disabled)',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('AssociateInput')) },
      responses: { '201': created('Associate'), '200': one('Associate', 'Existing associate'), '404': problem('resource-not-found (parentAssociateId)'), '422': problem('associate-disabled'), ...writeErrors },
    },
  },
  '/v1/associates/{id}': {
    parameters: [pathId],
    get: { operationId: 'getAssociate', summary: 'Get an associate', responses: { '200': one('Associate', 'Associate'), '404': problem('resource-not-found'), ...authErrors } },
    put: {
      operationId: 'replaceAssociate',
      summary: 'Replace an associate (full body); taxId cannot change, and a parentAssociateId that reports to this associate (a supervisor loop) is 400 validation',
      parameters: [idempotencyKey(false)],
      requestBody: { required: true, content: json(ref('AssociateInput')) },
      responses: { '200': one('Associate', 'Updated'), '404': problem('resource-not-found'), '422': problem('associate-disabled'), ...writeErrors },
    },
    delete: {
      operationId: 'disableAssociate',
      summary: 'Soft delete (status DISABLED)',
      parameters: [idempotencyKey(false)],
      responses: { '204': { description: 'Disabled' }, '404': problem('resource-not-found'), '422': problem('associate-disabled'), ...writeErrors },
    },
  },
  '/v1/associates/{id}/activations': {
    parameters: [pathId],
    post: {
      operationId: 'activateAssociate',
      summary: 'Re-enable a DISABLED associate',
      parameters: [idempotencyKey(false)],
      responses: { '200': one('Associate', 'Active again'), '404': problem('resource-not-found'), '422': problem('invalid-status-transition'), ...writeErrors },
    },
  },
  '/v1/clients/{id}/associates': {
    parameters: [pathId],
    get: { operationId: 'listClientAssociates', summary: 'Associates sharing receivable accounts with the client', parameters: listParams.slice(0, 2), responses: { '200': listOf('Associate'), '404': problem('resource-not-found'), ...authErrors } },
  },
} as const;

export const associatesSchemas = {
  AssociateInput: {
    type: 'object',
    required: ['type', 'name', 'lastName', 'taxId', 'documentNumber', 'email', 'phone'],
    properties: {
      type: { type: 'string', description: 'Free-form; conventional: DRIVER, DISTRIBUTOR, STUDENT, GUARDIAN, MEMBER, OTHER' },
      name: { type: 'string' },
      lastName: { type: 'string' },
      taxId: { type: 'string' },
      documentNumber: { type: 'string', pattern: '^\\d{6,9}$' },
      email: { type: 'string', format: 'email' },
      phone: { type: 'string', pattern: '^\\+[1-9]\\d{7,14}$' },
      address: nullableString,
      parentAssociateId: { type: ['integer', 'null'], minimum: 1 },
    },
  },
  Associate: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'type', 'name', 'lastName', 'taxId', 'documentNumber', 'email', 'phone', 'address', 'parentAssociateId', 'status', 'creationDate', 'modificationDate'],
    properties: {
      id,
      type: { type: 'string' },
      name: { type: 'string' },
      lastName: { type: 'string' },
      taxId,
      documentNumber: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      address: nullableString,
      parentAssociateId: { type: ['integer', 'null'] },
      status: { enum: ['ACTIVE', 'DISABLED'] },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
} as const;
