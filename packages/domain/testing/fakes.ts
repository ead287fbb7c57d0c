import type { AccessTokenClaims, Clock, EntityDirectory, IssuedToken, SecretGenerator, SecretHasher, TokenIssuer } from '../src';

/** A clock that only moves when told to. */
export class FixedClock implements Clock {
  constructor(private current: Date = new Date('2026-01-15T12:00:00.000Z')) {}

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Reversible "hash" for tests that do not care about hashing cost. */
export class PlainSecretHasher implements SecretHasher {
  async hash(secret: string): Promise<string> {
    return `plain:${secret}`;
  }

  async verify(secret: string, hash: string): Promise<boolean> {
    return hash === `plain:${secret}`;
  }
}

export class SequentialSecretGenerator implements SecretGenerator {
  private n = 0;

  clientId(): string {
    return `client-${++this.n}`;
  }

  clientSecret(): string {
    return `secret-${++this.n}`;
  }
}

/** Tokens that spell out their claims, for asserting what login granted. */
export class ReadableTokenIssuer implements TokenIssuer {
  issue(claims: AccessTokenClaims): IssuedToken {
    return { accessToken: JSON.stringify(claims), expiresIn: 43200 };
  }
}

/** Names an entity by the CBU/CVU's first 7 digits, so tests can tell which account an entity came from. */
export class CodeEntityDirectory implements EntityDirectory {
  entityOf(cbuCvu: string): string {
    return `Entity ${cbuCvu.slice(0, 7)}`;
  }
}
