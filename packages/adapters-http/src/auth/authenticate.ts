import type { Request, RequestHandler } from 'express';
import { DomainError, type AccessTokenClaims } from '@rcs/domain';
import type { CredentialStatusCache } from './credential-status-cache';
import type { JwtTokenService } from './jwt-token-service';

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AccessTokenClaims;
  }
}

/** Requires a valid bearer token of a credential that is still active, and attaches its claims to the request. */
export function authenticate(tokens: JwtTokenService, credentials: CredentialStatusCache): RequestHandler {
  return async (req, _res, next) => {
    const header = req.header('authorization');
    if (!header) throw new DomainError('unauthorized', 'missing Authorization: Bearer <token> header');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new DomainError('invalid-token', 'the Authorization header must be "Bearer <token>"');
    const claims = tokens.verify(match[1]);
    if (!(await credentials.isActive(claims.credentialId))) {
      throw new DomainError('invalid-token', 'the credential of this token has been revoked');
    }
    req.auth = claims;
    next();
  };
}

/** Requires a scope of the token (CONTRACT "Scopes": GET needs read, everything else write). */
export function requireScope(scope: string): RequestHandler {
  return (req, _res, next) => {
    if (!authOf(req).scopes.includes(scope)) {
      throw new DomainError('insufficient-scope', `this operation needs the scope ${scope}`, { requiredScope: scope });
    }
    next();
  };
}

/** The caller's claims; routes mounted behind authenticate always have them. */
export function authOf(req: Request): AccessTokenClaims {
  if (!req.auth) throw new DomainError('unauthorized', 'missing Authorization: Bearer <token> header');
  return req.auth;
}
