import type { Request, RequestHandler, Response } from 'express';
import { DomainError, type AccessTokenClaims } from '@rcs/domain';
import type { CredentialStatusCache, TokenCredential } from './credential-status-cache';
import type { JwtTokenService } from './jwt-token-service';

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AccessTokenClaims;
  }
}

/**
 * Requires a valid bearer token of a credential that is still active and whose claims are its own, and attaches
 * them to the request. A refused one is reported to `refused` first (which may answer 429 instead).
 */
export function authenticate(tokens: JwtTokenService, credentials: CredentialStatusCache, refused: (req: Request, res: Response) => void): RequestHandler {
  return async (req, res, next) => {
    try {
      req.auth = await claimsOf(req, tokens, credentials);
    } catch (error) {
      if (error instanceof DomainError) refused(req, res);
      throw error;
    }
    next();
  };
}

async function claimsOf(req: Request, tokens: JwtTokenService, credentials: CredentialStatusCache): Promise<AccessTokenClaims> {
  const header = req.header('authorization');
  // SPEC: a missing token is unauthorized, a malformed JWT invalid-token. Another scheme (Basic) carries no token.
  if (!header || !/^Bearer(\s|$)/i.test(header)) throw new DomainError('unauthorized', 'missing Authorization: Bearer <token> header');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new DomainError('invalid-token', 'the Authorization header must be "Bearer <token>"');
  const claims = tokens.verify(match[1]);
  const refusal = credentialRefusal(claims, await credentials.get(claims.credentialId));
  if (refusal) throw new DomainError('invalid-token', refusal);
  return claims;
}

/**
 * Why a well-signed token may not act for its credential, if it may not. Tokens are signed only by this service,
 * so a mismatch means the signing secret served someone else: it must not reach another customer's data.
 */
function credentialRefusal(claims: AccessTokenClaims, credential: TokenCredential | undefined): string | undefined {
  if (!credential) return 'the credential of this token does not exist';
  if (credential.status !== 'ACTIVE') return 'the credential of this token has been revoked';
  if (credential.customerId !== claims.customerId || credential.clientId !== claims.sub) {
    return "the token's customerId or sub is not its credential's";
  }
  if (claims.scopes.some((scope) => !credential.scopes.includes(scope))) return 'the token claims scopes its credential does not hold';
  return undefined;
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
