import { apiErrorOf } from './api-error';
import type { components } from './generated/api';

type LoginResponse = components['schemas']['LoginResponse'];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/**
 * Logs in on first use and again once the token is within `renewBeforeMs` of expiring, so no call is sent with a
 * token about to lapse. Calls arriving while a login runs share it.
 */
export function tokenSource(
  baseUrl: string,
  credentials: Credentials,
  send: (request: Request) => Promise<Response>,
  renewBeforeMs: number,
  now: () => number,
) {
  let current: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function login(): Promise<string> {
    const response = await send(
      new Request(new URL('/v1/auth/login', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) }),
    );
    if (!response.ok) throw await apiErrorOf(response);
    const body = (await response.json()) as LoginResponse;
    current = { token: body.accessToken, renewAt: now() + body.expiresIn * 1000 - renewBeforeMs };
    return body.accessToken;
  }

  return function token(): Promise<string> {
    if (current && now() < current.renewAt) return Promise.resolve(current.token);
    pending ??= login().finally(() => (pending = undefined));
    return pending;
  };
}
