import type { RequestHandler } from 'express';
import { DomainError } from '@rcs/domain';

export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/**
 * A body of another media type (a form, plain text, none named) is 415 before anything runs: the JSON parser would
 * skip it and the operation would see no body at all, which reads as a wrong body rather than a wrong format.
 */
export const jsonBodiesOnly: RequestHandler = (req, _res, next) => {
  // is() answers null for a request without a body, false for a body of another type; an empty body (Content-Length:
  // 0, as clients send on a POST with nothing to say) has no media type to be wrong about.
  if (req.headers['content-length'] !== '0' && req.is(JSON_MEDIA_TYPES) === false) {
    next(
      new DomainError(
        'unsupported-media-type',
        `a request body must be sent as application/json, not ${req.headers['content-type'] ?? 'without a Content-Type'}`,
      ),
    );
    return;
  }
  next();
};
