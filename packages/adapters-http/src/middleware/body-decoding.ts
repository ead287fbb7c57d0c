import type { RequestHandler } from 'express';

/** The `type` given to a body that does not decode; the error handler answers it like the parser's other body errors. */
export const BODY_DECODING_FAILED = 'entity.decode.failed';

/**
 * `parser` (one of Express's body parsers) with its decompression failures typed. A body whose Content-Encoding
 * (gzip, deflate, br) does not decode reaches next() as zlib's own error, marked 400 but with no `type`, unlike
 * every other body error the parser raises, so it would be taken for an unexpected failure (500).
 */
export function withDecodingErrorsTyped(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      const bodyError = error as { type?: string; status?: number } | undefined;
      if (bodyError && bodyError.type === undefined && bodyError.status === 400) bodyError.type = BODY_DECODING_FAILED;
      next(error);
    });
}
