import type { NextFunction, Response } from 'express';
import type { StoredResponse } from '@rcs/domain';

/**
 * Runs the rest of the chain (`next`) but holds back what it would send: the first res.json or res.end is
 * recorded instead of written, so the caller can commit before the client sees the result. `flush` then writes it.
 */
export function captureResponse(res: Response, next: NextFunction): Promise<StoredResponse> {
  const json = res.json;
  const end = res.end;
  return new Promise<StoredResponse>((resolve) => {
    const settle = (body: unknown) => {
      res.json = json;
      res.end = end;
      const location = res.getHeader('Location');
      resolve({ status: res.statusCode, body, ...(location ? { location: String(location) } : {}) });
      return res;
    };
    res.json = settle as Response['json'];
    res.end = (() => settle(null)) as unknown as Response['end'];
    next();
  });
}

/** Writes a captured or stored response. */
export function sendStored(res: Response, response: StoredResponse, contentType?: string): void {
  res.status(response.status);
  if (response.location) res.location(response.location);
  if (response.status === 204 || response.body === null) {
    res.end();
    return;
  }
  if (contentType) res.type(contentType);
  res.json(response.body);
}
