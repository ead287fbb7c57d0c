import type { components } from './generated/api';

export type Problem = components['schemas']['Problem'];

/** An answer the service refused, with its Problem JSON: branch on `code`, the stable part. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'ApiError';
    this.status = problem.status;
    this.code = problem.code;
  }
}

/** The Problem of a refused answer; an answer that is not Problem JSON (a proxy's 502 page) gets one from its status. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  if (response.headers.get('content-type')?.startsWith('application/problem+json')) return new ApiError((await response.json()) as Problem);
  const detail = (await response.text()) || response.statusText;
  return new ApiError({ type: 'about:blank', title: response.statusText, status: response.status, detail, code: `http-${response.status}` });
}
