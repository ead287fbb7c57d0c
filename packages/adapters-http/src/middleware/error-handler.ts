import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '@rcs/domain';
import { BODY_DECODING_FAILED } from './body-decoding';
import { problemOf, problemOfError, sendProblem } from './problem';

/** Errors raised by Express's body parser (http-errors), told apart by their `type`. */
interface BodyParserError {
  readonly type?: string;
  readonly status?: number;
  readonly expose?: boolean;
}

const BODY_PARSER_DETAIL: Readonly<Record<string, string>> = {
  'entity.parse.failed': 'the request body is not valid JSON',
  [BODY_DECODING_FAILED]: 'the request body does not decode as its Content-Encoding says',
  'encoding.unsupported': 'the request body encoding is not supported',
  'charset.unsupported': 'the request body charset must be utf-8',
  'request.aborted': 'the request body was not received completely',
  'request.size.invalid': 'the request body length does not match Content-Length',
};

/**
 * The one place errors become responses: domain errors by their code, malformed input as 400/413, and anything
 * else as 500 internal-error with the request id (logged, never detailed to the caller).
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof DomainError) {
      const { problem, retryAfterSeconds } = problemOfError(error);
      if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
      return sendProblem(res, problem);
    }
    const parserError = error as BodyParserError;
    if (parserError.type === 'entity.too.large') {
      return sendProblem(res, problemOf('payload-too-large', 'the request body exceeds 1 MB'));
    }
    if (parserError.type && parserError.expose && (parserError.status ?? 500) < 500) {
      const detail = BODY_PARSER_DETAIL[parserError.type] ?? 'the request body could not be read';
      return sendProblem(res, problemOf('validation', detail, { invalidParams: [{ name: 'body', reason: detail }] }));
    }
    if (error instanceof URIError && parserError.status === 400) {
      // The router could not percent-decode a path parameter (%FF).
      const reason = 'is not valid percent-encoded UTF-8';
      return sendProblem(res, problemOf('validation', `path: ${reason}`, { invalidParams: [{ name: 'path', reason }] }));
    }
    const requestId = String(res.getHeader('X-Request-Id') ?? '');
    logger.error({ err: error, requestId, method: req.method, path: req.path }, 'unhandled error');
    sendProblem(res, problemOf('internal-error', 'an unexpected error occurred; retry only if the operation is idempotent', { requestId }));
  };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, problemOf('resource-not-found', `no route for ${req.method} ${req.path}`));
};
