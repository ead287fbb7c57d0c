import { ASSOCIATE_STATUSES } from '@rcs/domain';
import {
  created,
  listOf,
  listParams,
  pageParams,
  noContent,
  one,
  operation,
  param,
  idSchema,
  pathId,
  pathResource,
  ref,
  type ResourceApi,
} from './operation-parts';
import { timestamp, nullableString, taxId, taxIdInput, id } from './shared-schemas';

/** Associates (routes/associate-routes.ts). */

const tag = 'Associates';
const associateInput = {
  type: 'DRIVER',
  name: 'Lucía',
  lastName: 'Pereyra',
  taxId: '27-28345678-4',
  documentNumber: '28345678',
  email: 'lucia.pereyra@norte.example',
  phone: '+5491155550123',
  address: 'Av. Corrientes 1234, CABA',
  parentAssociateId: null,
};
const associate = {
  id: 7,
  ...associateInput,
  taxId: '27283456784',
  status: 'ACTIVE',
  creationDate: '2026-03-02T14:00:00.000Z',
  modificationDate: '2026-03-02T14:00:00.000Z',
};
const body = { schema: ref('AssociateInput'), example: associateInput };
const parent = {
  'resource-not-found': 'no associate has the parentAssociateId',
  'resource-not-accessible': "the parentAssociateId is another customer's associate",
} as const;
const read = 'associates:read';
const write = 'associates:write';

const paths = {
  '/v1/associates': {
    get: operation({
      id: 'listAssociates',
      tag,
      summary: 'List associates',
      description: 'status defaults to ACTIVE.',
      scope: read,
      parameters: [
        ...listParams,
        param('taxId', '11 digits'),
        param('documentNumber', 'Exact'),
        param('type', 'Exact'),
        param('parentAssociateId', 'Supervisor id', idSchema),
        param('status', 'ACTIVE (default) or DISABLED'),
      ],
      responses: { '200': listOf('Associate', associate) },
    }),
    post: operation({
      id: 'createAssociate',
      tag,
      summary: 'Create an associate, or find it',
      description:
        'Returns the ACTIVE associate with that taxId (200) instead of creating another; a DISABLED one gives 422 associate-disabled (activate it instead).',
      scope: write,
      key: 'optional',
      body,
      responses: { '201': created('Associate', associate), '200': one('Associate', 'Existing associate', associate) },
      refusals: { ...parent, 'associate-disabled': 'the associate with this taxId, or the parent, is DISABLED' },
    }),
  },
  '/v1/associates/{id}': {
    parameters: [pathId],
    get: operation({
      id: 'getAssociate',
      tag,
      summary: 'Get an associate',
      scope: read,
      responses: { '200': one('Associate', 'Associate', associate) },
      refusals: pathResource('associate'),
    }),
    put: operation({
      id: 'replaceAssociate',
      tag,
      summary: 'Replace an associate',
      description: 'A full body; taxId cannot change, and a parentAssociateId that reports to this associate (a supervisor loop) is 400 validation.',
      scope: write,
      key: 'optional',
      body,
      responses: { '200': one('Associate', 'Updated', associate) },
      refusals: { ...pathResource('associate'), 'associate-disabled': 'the associate, or the parent, is DISABLED' },
    }),
    delete: operation({
      id: 'disableAssociate',
      tag,
      summary: 'Disable an associate',
      description: 'A soft delete: status DISABLED.',
      scope: write,
      key: 'optional',
      responses: { '204': noContent('Disabled') },
      refusals: { ...pathResource('associate'), 'associate-disabled': 'the associate is DISABLED already' },
    }),
  },
  '/v1/associates/{id}/activations': {
    parameters: [pathId],
    post: operation({
      id: 'activateAssociate',
      tag,
      summary: 'Re-enable a DISABLED associate',
      scope: write,
      key: 'optional',
      responses: { '200': one('Associate', 'Active again', associate) },
      refusals: { ...pathResource('associate'), 'invalid-status-transition': 'the associate is ACTIVE already' },
    }),
  },
  '/v1/clients/{id}/associates': {
    parameters: [pathId],
    get: operation({
      id: 'listClientAssociates',
      tag,
      summary: "List a client's associates",
      description: 'Associates sharing receivable accounts with the client.',
      scope: read,
      parameters: pageParams,
      responses: { '200': listOf('Associate', associate) },
      refusals: pathResource('client'),
    }),
  },
};

const schemas = {
  AssociateInput: {
    type: 'object',
    required: ['type', 'name', 'lastName', 'taxId', 'documentNumber', 'email', 'phone'],
    properties: {
      type: { type: 'string', description: 'Free-form; conventional: DRIVER, DISTRIBUTOR, STUDENT, GUARDIAN, MEMBER, OTHER' },
      name: { type: 'string' },
      lastName: { type: 'string' },
      taxId: taxIdInput,
      documentNumber: { type: 'string', pattern: '^\\d{6,9}$', description: 'The national identity number (DNI) as digits only, 6 to 9, without dots' },
      email: { type: 'string', format: 'email' },
      phone: {
        type: 'string',
        pattern: '^\\+[1-9]\\d{7,14}$',
        description: 'With its country code, in E.164: + and 8 to 15 digits, no spaces or dashes (+5491155550123); stored and answered as given',
      },
      address: nullableString,
      parentAssociateId: { type: ['integer', 'null'], minimum: 1 },
    },
  },
  Associate: {
    type: 'object',
    required: [
      'id',
      'type',
      'name',
      'lastName',
      'taxId',
      'documentNumber',
      'email',
      'phone',
      'address',
      'parentAssociateId',
      'status',
      'creationDate',
      'modificationDate',
    ],
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
      status: { enum: ASSOCIATE_STATUSES },
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
} as const;

export const associatesApi: ResourceApi = {
  tags: [
    {
      name: tag,
      description: 'People who act for the integrator (drivers, distributors, members...): they can own receivable accounts, alone or with a client',
    },
  ],
  paths,
  schemas,
};
