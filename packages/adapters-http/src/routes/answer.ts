import type { Request, Response } from 'express';
import { jsonText, type StoredResponse, type UseCases } from '@rcs/domain';
import { PROBLEM_CONTENT_TYPE } from '../middleware/problem';

/** What a handler answers; the responder writes it, and an idempotent request keeps it under its key. */
export interface Answer {
  readonly status: number;
  /** Absent: no body (204). */
  readonly body?: unknown;
  readonly location?: string;
}

export type AnswerHandler = (req: Request) => Promise<Answer>;

/**
 * A handler of a write that may come under an Idempotency-Key: it calls the use cases it is handed, which are
 * bound to the key's transaction when a key came, so the write, its events and the stored answer commit together.
 */
export type KeyedHandler = (req: Request, app: UseCases) => Promise<Answer>;

export const ok = (body: unknown): Answer => ({ status: 200, body });

export const created = (body: unknown, location?: string): Answer => ({ status: 201, body, ...(location ? { location } : {}) });

export const noContent = (): Answer => ({ status: 204 });

/** 201 with Location for a new resource, 200 for an upsert that found an existing one. */
export const upserted = (isNew: boolean, location: string, body: unknown): Answer => (isNew ? created(body, location) : ok(body));

/** The answer with its body serialised, once: that text goes on the wire, under the key and into the replay cache. */
export function serialized(answer: Answer): StoredResponse {
  return {
    status: answer.status,
    body: answer.body === undefined ? null : jsonText(answer.body)!,
    ...(answer.location ? { location: answer.location } : {}),
  };
}

/** The one responder: writes an answer's status, Location and body text (a refusal's as Problem JSON). */
export function sendResponse(res: Response, response: StoredResponse): void {
  res.status(response.status);
  if (response.location) res.location(response.location);
  if (response.body === null) {
    res.end();
    return;
  }
  res.type(response.status >= 400 ? PROBLEM_CONTENT_TYPE : 'json').send(response.body);
}
