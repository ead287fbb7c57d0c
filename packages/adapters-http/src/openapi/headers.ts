/** The response headers besides the rate-limit ones (rate-limit-headers.ts), as components operations refer to. */
export const responseHeaders = {
  'X-Request-Id': {
    description: "The request's id: the caller's X-Request-Id when it was well formed, else one the service made. Problem bodies of 500 carry it as requestId",
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key and body; absent on a first answer',
    schema: { const: 'true' },
  },
  'X-Total-Count': { description: 'How many items match the filters across all pages', schema: { type: 'integer', minimum: 0 } },
  Link: {
    description:
      'RFC 8288 link to the next page, absent on the last: `</v1/...?...&cursor=...>; rel="next"`. Each page reached ' +
      'through it costs the same however deep, and it does not shift when items are created meanwhile',
    schema: { type: 'string' },
    example: '</v1/receivables?status=PENDING&count=20&cursor=WyIyMDI2LTAzLTAxVDEyOjAwOjAwLjAwMDAwMFoiLDQyXQ>; rel="next"',
  },
  Location: { description: 'The path of the created resource', schema: { type: 'string' } },
};

export const headerRef = (name: keyof typeof responseHeaders) => ({ $ref: `#/components/headers/${name}` });
