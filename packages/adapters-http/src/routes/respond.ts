import type { ClassConstructor } from 'class-transformer';
import type { RequestHandler, Response } from 'express';
import type { BatchOutcome, EventFeedPage, Page } from '@rcs/domain';
import type { IdempotencyKeys } from '../middleware/idempotency';
import type { AnswerHandler, KeyedHandler } from './answer';
import { problemOf } from '../middleware/problem';
import { parseInput } from '../dto/parse-input';
import { cursorOf, feedCursorOf } from '../dto/page-cursor';

/** Replaces req.body with the validated, whitelisted DTO (before idempotency fingerprints it). */
export function validBody<T extends object>(dto: ClassConstructor<T>): RequestHandler {
  return (req, _res, next) => {
    req.body = parseInput(dto, req.body, 'body');
    next();
  };
}

/**
 * `handler` of a body under an Idempotency-Key (`key`: whether the header is required), in the one order that
 * works: a byte-for-byte repeat answered from the replay cache, then the body validated (`body`: validBody of its
 * DTO, or a batch's batchBody), then the key claimed or
 * replayed on the validated body's fingerprint. `outside` runs between validation and the key's transaction: work
 * that must not hold one open (a call to the banking provider); a key that a completed request already answered
 * is replayed or refused as reused before it, so that work never runs for it.
 */
export function keyedBody(
  keys: IdempotencyKeys,
  key: 'required' | 'optional',
  body: RequestHandler,
  handler: KeyedHandler,
  ...outside: RequestHandler[]
): RequestHandler[] {
  const early = outside.length === 0 ? [] : [keys.answeredEarlier(key), ...outside];
  return [keys.cachedReplay, body, ...early, keys[key](handler)];
}

/**
 * `handler` of a body under an Idempotency-Key when one is sent, for an operation no transaction may stay open
 * across (IdempotencyKeys.held): a byte-for-byte repeat answered from the replay cache, the body validated (`body`),
 * then the key held while the handler runs.
 */
export function heldKeyBody(keys: IdempotencyKeys, body: RequestHandler, handler: AnswerHandler): RequestHandler[] {
  return [keys.cachedReplay, body, keys.held(handler)];
}

/**
 * A list: the bare array, the total in X-Total-Count, and, unless this is the last page, a Link (RFC 8288) to the
 * next one: the request's own path and query with the cursor of where the next page starts, in place of page.
 */
export function sendPage<T, R>(res: Response, page: Page<T>, map: (item: T) => R): void {
  sendItems(res, page.items.map(map), page.total, page.next && cursorOf(page.next));
}

/**
 * A page of a feed: as a list's, but its Link is always there, from where the page ended, for the reader to follow,
 * without the fromDate that placed its start.
 */
export function sendFeed<R>(res: Response, page: EventFeedPage, map: (item: EventFeedPage['items'][number]) => R): void {
  sendItems(res, page.items.map(map), page.total, feedCursorOf(page.next), ['page', 'fromDate']);
}

function sendItems(res: Response, items: unknown[], total: number, cursor: string | undefined, replaced: readonly string[] = ['page']): void {
  res.setHeader('X-Total-Count', String(total));
  if (cursor !== undefined) res.setHeader('Link', `<${nextPageUrl(res.req.originalUrl, cursor, replaced)}>; rel="next"`);
  res.json(items);
}

/** The request's own path and query, with the cursor in place of the parameters that placed the page (`replaced`). */
function nextPageUrl(requestUrl: string, cursor: string, replaced: readonly string[]): string {
  const url = new URL(requestUrl, 'http://service');
  for (const name of replaced) url.searchParams.delete(name);
  url.searchParams.set('cursor', cursor);
  return `${url.pathname}${url.search}`;
}

/**
 * The body of a batch answer: one result per item, in order, with the status the item would have had alone and
 * either the created resource under `name` or the Problem body of its error.
 */
export function batchResults<T>(results: ReadonlyArray<BatchOutcome<T>>, name: string, created: (value: T, index: number) => unknown) {
  return {
    results: results.map((result) => {
      if ('error' in result) {
        const problem = problemOf(result.error.code, result.error.message, result.error.extras);
        return { index: result.index, status: problem.status, error: problem };
      }
      return { index: result.index, status: 201, [name]: created(result.value, result.index) };
    }),
  };
}
