/** JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the wire shapes. */
const timestamp = { type: 'string', format: 'date-time' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const taxId = { type: 'string', pattern: '^\\d{11}$', description: '11 digits; input may carry dashes and spaces' } as const;
const id = { type: 'integer', minimum: 1, format: 'int64' } as const;

export const schemas = {
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', description: 'Stable error code (SPEC "Errors")' },
      invalidParams: {
        type: 'array',
        items: { type: 'object', required: ['name', 'reason'], properties: { name: { type: 'string' }, reason: { type: 'string' } } },
      },
      requestId: { type: 'string' },
      existingResourceId: id,
      missingFields: { type: 'array', items: { type: 'string' } },
      requiredScope: { type: 'string' },
    },
  },
  LoginRequest: {
    type: 'object',
    required: ['clientId', 'clientSecret'],
    properties: { clientId: { type: 'string' }, clientSecret: { type: 'string' } },
  },
  LoginResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['accessToken', 'tokenType', 'expiresIn', 'scope'],
    properties: {
      accessToken: { type: 'string' },
      tokenType: { const: 'Bearer' },
      expiresIn: { type: 'integer', description: 'Seconds (43200)' },
      scope: { type: 'string', description: 'Space-separated scopes' },
    },
  },
  Me: {
    type: 'object',
    additionalProperties: false,
    required: ['customerId', 'customerName', 'clientId', 'scopes'],
    properties: { customerId: id, customerName: { type: 'string' }, clientId: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } },
  },
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
      alias: { type: 'string', pattern: '^[A-Za-z0-9.-]{6,20}$', description: 'Only once the account has one (ACTIVE); unique across the service' },
      associateId: { type: 'integer', minimum: 1, description: 'Binds an associate to an account that has none (or replaces it before the CVU is active)' },
    },
  },
  ReceivableAccount: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'cvu', 'alias', 'currencyCode', 'status', 'owner', 'stats', 'creationDate', 'modificationDate'],
    properties: {
      id,
      cvu: { type: ['string', 'null'], pattern: '^\\d{22}$', description: 'null while PROVISIONING' },
      alias: { type: ['string', 'null'], description: 'Generated from the customer template when the CVU is assigned' },
      currencyCode: { const: 'ARS' },
      status: { enum: ['PROVISIONING', 'ACTIVE', 'DISABLED'] },
      owner: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'id'],
            properties: { type: { enum: ['CLIENT', 'ASSOCIATE'] }, id, displayName: { type: 'string' }, taxId },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'clientId', 'associateId'],
            properties: {
              type: { const: 'CLIENT_AND_ASSOCIATE' },
              clientId: id,
              associateId: id,
              client: {
                type: 'object',
                additionalProperties: false,
                required: ['displayName', 'taxId', 'branchExternalCode'],
                properties: { displayName: { type: 'string' }, taxId, branchExternalCode: nullableString },
              },
              associate: { type: 'object', additionalProperties: false, required: ['displayName', 'taxId'], properties: { displayName: { type: 'string' }, taxId } },
            },
          },
        ],
        description: 'displayName/taxId (or client/associate) only with expand=owner',
      },
      stats: {
        type: 'object',
        required: ['pendingAmount'],
        properties: { pendingAmount: { type: 'number', description: 'Sum of the PENDING receivables of the account' } },
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
  ReceivableAccountBatchResponse: {
    type: 'object',
    required: ['results'],
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['index', 'status'],
          properties: {
            index: { type: 'integer', minimum: 0 },
            status: { type: 'integer', description: 'The HTTP status the item would have had alone' },
            receivableAccount: { $ref: '#/components/schemas/ReceivableAccount' },
            error: { $ref: '#/components/schemas/Problem' },
          },
        },
      },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: { status: { enum: ['ok', 'degraded'] }, database: { enum: ['up', 'down'] } },
  },
} as const;
