import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { DomainError, type AccessTokenClaims, type IssuedToken, type TokenIssuer } from '@rcs/domain';

/** Token lifetime in seconds (CONTRACT: expiresIn 43200). */
export const TOKEN_TTL_SECONDS = 43_200;

/** How far ahead of this instance's clock another instance's may run when it stamps a token's iat. */
const CLOCK_SKEW_SECONDS = 60;

/** Bound of the verified-token memo; past it the oldest entry goes. */
const MAX_VERIFIED_TOKENS = 10_000;

interface TokenPayload {
  sub: string;
  customerId: number;
  /** Credential row id, so idempotency keys are scoped to the credential. */
  cid: number;
  scope: string;
}

/** HS256 bearer tokens with claims sub, customerId, scope, iat, exp (CONTRACT). */
export class JwtTokenService implements TokenIssuer {
  /**
   * A KeyObject made once: given a plain string, jsonwebtoken tries to parse it as a PEM public key on every
   * verify before falling back, which took 30% of the service's CPU under load.
   */
  private readonly key: KeyObject;

  /**
   * Tokens already verified, with their expiry: a token is immutable, so checking its signature once is enough,
   * and a client sends the same token for hours. Revocation is checked per request elsewhere.
   */
  private readonly verified = new Map<string, { readonly claims: AccessTokenClaims; readonly expiresAtMs: number }>();

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: AccessTokenClaims): IssuedToken {
    const payload: TokenPayload = {
      sub: claims.sub,
      customerId: claims.customerId,
      cid: claims.credentialId,
      scope: claims.scopes.join(' '),
    };
    const accessToken = jwt.sign(payload, this.key, { algorithm: 'HS256', expiresIn: TOKEN_TTL_SECONDS });
    return { accessToken, expiresIn: TOKEN_TTL_SECONDS };
  }

  /** The claims of a valid token; invalid-token or token-expired otherwise. */
  verify(token: string): AccessTokenClaims {
    const known = this.verified.get(token);
    if (known && known.expiresAtMs > Date.now()) return known.claims;
    this.verified.delete(token);
    const { expiresAt, ...claims } = this.check(token);
    if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, expiresAtMs: expiresAt * 1000 });
    return claims;
  }

  private check(token: string): AccessTokenClaims & { expiresAt: number } {
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.key, { algorithms: ['HS256'] });
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw new DomainError('token-expired', 'the access token has expired; log in again');
      throw new DomainError('invalid-token', 'the access token is malformed or its signature is wrong');
    }
    const p = payload as Partial<TokenPayload & { exp: number; iat: number }>;
    if (
      typeof p.sub !== 'string' ||
      !Number.isSafeInteger(p.customerId) ||
      !Number.isSafeInteger(p.cid) ||
      typeof p.scope !== 'string' ||
      !Number.isSafeInteger(p.exp) ||
      !Number.isSafeInteger(p.iat)
    ) {
      throw new DomainError('invalid-token', 'the access token lacks required claims');
    }
    // Only a holder of the signing secret can write these: a token outliving what this service issues (or stamped
    // in the future, to stretch its life) was not issued by it.
    if (p.exp! - p.iat! > TOKEN_TTL_SECONDS || p.iat! > Date.now() / 1000 + CLOCK_SKEW_SECONDS) {
      throw new DomainError('invalid-token', `the access token claims a lifetime beyond the ${TOKEN_TTL_SECONDS} s this service issues`);
    }
    return { sub: p.sub, customerId: p.customerId!, credentialId: p.cid!, scopes: p.scope.split(' ').filter(Boolean), expiresAt: p.exp! };
  }
}
