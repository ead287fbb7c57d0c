/** JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the wire shapes. */
const timestamp = { type: 'string', format: 'date-time' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const taxId = { type: 'string', pattern: '^\\d{11}$', description: '11 digits; input may carry dashes and spaces' } as const;
const id = { type: 'integer', minimum: 1, format: 'int64' } as const;
const nullableDate = { type: ['string', 'null'], format: 'date' } as const;
const receivableTypes = ['INVOICE', 'DEBT', 'CREDIT_NOTE', 'MISSING_PRODUCT', 'RETURN_PRODUCT', 'BROKEN_PRODUCT', 'ADJUSTMENT', 'RETENTION'];
const invoiceData = {
  type: ['object', 'null'],
  description: 'Referential voucher data; once present, version, pointOfSale, rawDocumentType, authCodeType and authCode are required (422 missing-invoice-fields)',
  properties: Object.fromEntries(['version', 'pointOfSale', 'quote', 'rawDocumentType', 'recipientDocumentType', 'authCodeType', 'authCode'].map((k) => [k, { type: 'string' }])),
} as const;

/** One result per batch item, in order: the status it would have had alone, and the resource or the Problem. */
function batchResponse(member: string, schema: string) {
  return {
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
            [member]: { $ref: `#/components/schemas/${schema}` },
            error: { $ref: '#/components/schemas/Problem' },
          },
        },
      },
    },
  } as const;
}

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
  ReceivableAccountBatchResponse: batchResponse('receivableAccount', 'ReceivableAccount'),
  ReceivableInput: {
    type: 'object',
    required: ['receivableAccountId', 'amount', 'currencyCode', 'receivableType'],
    properties: {
      receivableAccountId: id,
      amount: { type: ['number', 'string'], description: 'Positive, at most 2 decimals, at most 9999999999999.99 (a decimal string is accepted)' },
      currencyCode: { const: 'ARS' },
      receivableType: { enum: receivableTypes },
      clientId: { type: ['integer', 'null'], description: "Inherited from the account; if sent, must be the account's client" },
      associateId: { type: ['integer', 'null'], description: 'Bound to the account if it has none; another one than the account\'s is 422' },
      legalNumber: { ...nullableString, description: 'Unique per customer' },
      description: nullableString,
      externalRoutingCode: { ...nullableString, description: 'Groups the receivable under the route settlement of that code when the associate matches' },
      issueDate: nullableDate,
      dueDate: nullableDate,
      receivableDate: { ...nullableDate, description: 'Defaults to today in Buenos Aires' },
      parentReceivableId: { type: ['integer', 'null'], description: 'Required for negative types, refused for positive ones' },
      attachmentUri: nullableString,
      invoiceData: invoiceData,
    },
  },
  ReceivableEdit: {
    type: 'object',
    description: 'Editable fields; amount only while PENDING. Identity fields may be sent unchanged (a change is 400 validation).',
    properties: {
      amount: { type: ['number', 'string'] },
      legalNumber: nullableString,
      description: nullableString,
      externalRoutingCode: nullableString,
      issueDate: nullableDate,
      dueDate: nullableDate,
      attachmentUri: nullableString,
      invoiceData: invoiceData,
    },
  },
  ReceivableStatusInput: {
    type: 'object',
    required: ['status'],
    properties: { status: { enum: ['PAID', 'PENDING', 'DISABLED'], description: 'PAID from PENDING/EXPIRED; PENDING undoes PAID; DISABLED cancels' } },
  },
  Receivable: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'receivableAccountId', 'clientId', 'associateId', 'amount', 'currencyCode', 'receivableType', 'status', 'legalNumber', 'description',
      'externalRoutingCode', 'issueDate', 'dueDate', 'receivableDate', 'parentReceivableId', 'attachmentUri', 'invoiceData', 'creationDate', 'modificationDate'],
    properties: {
      id,
      receivableAccountId: id,
      clientId: { type: ['integer', 'null'] },
      associateId: { type: ['integer', 'null'] },
      amount: { type: 'number', exclusiveMinimum: 0 },
      currencyCode: { const: 'ARS' },
      receivableType: { enum: receivableTypes },
      status: { enum: ['PENDING', 'PAID', 'SETTLED', 'EXPIRED', 'DISABLED'] },
      legalNumber: nullableString,
      description: nullableString,
      externalRoutingCode: nullableString,
      issueDate: nullableDate,
      dueDate: nullableDate,
      receivableDate: { type: 'string', format: 'date' },
      parentReceivableId: { type: ['integer', 'null'] },
      attachmentUri: nullableString,
      invoiceData: invoiceData,
      creationDate: timestamp,
      modificationDate: timestamp,
    },
  },
  ReceivableBatchRequest: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/ReceivableInput' } } },
  },
  ReceivableBatchResponse: batchResponse('receivable', 'Receivable'),
  RouteSettlementInput: {
    type: 'object',
    required: ['routeCode', 'date', 'associateId'],
    properties: { routeCode: { type: 'string', maxLength: 64 }, date: { type: 'string', format: 'date' }, associateId: id },
  },
  RouteSettlement: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'routeCode', 'date', 'associateId', 'receivableAccountIds', 'summary', 'creationDate'],
    properties: {
      id,
      routeCode: { type: 'string' },
      date: { type: 'string', format: 'date' },
      associateId: id,
      receivableAccountIds: { type: 'array', items: id },
      summary: {
        type: 'object',
        additionalProperties: false,
        required: ['receivablesCount', 'totalAmount', 'byReceivableType'],
        properties: {
          receivablesCount: { type: 'integer', minimum: 0 },
          totalAmount: { type: 'number', description: 'Net: positive types add, negative subtract (cancelled receivables left out)' },
          byReceivableType: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['type', 'count', 'amount'],
              properties: { type: { enum: receivableTypes }, count: { type: 'integer' }, amount: { type: 'number', description: 'Negative for negative types' } },
            },
          },
        },
      },
      creationDate: timestamp,
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'database'],
    properties: { status: { enum: ['ok', 'degraded'] }, database: { enum: ['up', 'down'] } },
  },
} as const;
