/** Slow, salted one-way hashing of client secrets; verification in constant time. */
export interface SecretHasher {
  hash(secret: string): Promise<string>;
  verify(secret: string, hash: string): Promise<boolean>;
}

/** Fresh random client ids and secrets. */
export interface SecretGenerator {
  clientId(): string;
  clientSecret(): string;
}

export interface AccessTokenClaims {
  /** The credential's clientId. */
  readonly sub: string;
  readonly credentialId: number;
  readonly customerId: number;
  readonly scopes: readonly string[];
}

export interface IssuedToken {
  readonly accessToken: string;
  readonly expiresIn: number;
}

export interface TokenIssuer {
  issue(claims: AccessTokenClaims): IssuedToken;
}
