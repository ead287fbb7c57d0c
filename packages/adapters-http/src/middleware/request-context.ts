import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Accepts the caller's X-Request-Id (or makes one), returns it on every response, and writes one JSON log line
 * per request. Logs carry method, path, status and timing only: never headers, bodies or query strings, so no
 * secret or token can reach them.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.header('x-request-id');
    const requestId = given && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // The per-request line is at info level: below it, skip the listener and its closure altogether.
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
          clientId: req.auth?.sub,
        },
        'request',
      );
    });
    next();
  };
}
