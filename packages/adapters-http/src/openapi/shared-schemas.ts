/** JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the wire shapes. */
export const timestamp = { type: 'string', format: 'date-time' } as const;
export const nullableString = { type: ['string', 'null'] } as const;
/** How a key found character for character is written (the HTTP adapter's KeyText). */
export const KEY_TEXT_RULE =
  'no white space at either end, no control or invisible characters, no white space but the plain space, in composed form (NFC) (it is matched character for character)';
export const taxId = { type: 'string', pattern: '^\\d{11}$', description: '11 digits; input may carry dashes and spaces' } as const;
/** A CUIT/CUIL as sent: every body field of one is read by the same rule (domain parseTaxId), else 400 validation. */
export const taxIdInput = {
  type: 'string',
  description:
    'CUIT/CUIL: 11 digits, dashes and spaces accepted; prefix 20, 23 to 27 (people) or 30, 33, 34 (companies, never a ' +
    'CUIL); the last digit the check digit of the first ten. Anything else is 400 validation naming the field.',
} as const;
export const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' } as const;
export const nullableDate = { type: ['string', 'null'], format: 'date' } as const;
/** One result per batch item, in order: the status it would have had alone, and the resource or the Problem. */
export function batchResponse(member: string, schema: string) {
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

export const sharedSchemas = {
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
      providerError: {
        type: 'object',
        description: 'What the banking provider did (external-provider-unavailable, external-provider-timeout)',
        required: ['code', 'detail'],
        properties: { code: { type: 'string', description: 'TIMEOUT, HTTP_503, ECONNREFUSED, BAD_RESPONSE, ...' }, detail: { type: 'string' } },
      },
    },
  },
} as const;

/** A client's or a transfer's externalId as written: the list filter finds it character for character. */
export const externalIdInput = { ...nullableString, maxLength: 128, description: `Your own reference; a list filter: ${KEY_TEXT_RULE}` } as const;
