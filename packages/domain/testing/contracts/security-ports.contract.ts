import type { AccessTokenClaims, SecretHasher, TokenIssuer } from '../../src';

/**
 * The suite every SecretHasher passes: the plain fake the use-case tests use, and scrypt. What login relies on:
 * the secret verifies against its hash, nothing else does, and a stored value it cannot read is a refusal.
 */
export function secretHasherContract(hasher: () => SecretHasher): void {
  describe('secret hasher', () => {
    it('verifies a secret against its own hash', async () => {
      const h = hasher();
      expect(await h.verify('s3cret-value', await h.hash('s3cret-value'))).toBe(true);
    });

    it('refuses another secret against the hash', async () => {
      const h = hasher();
      expect(await h.verify('s3cret-valuE', await h.hash('s3cret-value'))).toBe(false);
    });

    it('never stores the secret as it is', async () => {
      expect(await hasher().hash('s3cret-value')).not.toBe('s3cret-value');
    });

    it('refuses a stored value it did not produce instead of throwing', async () => {
      const h = hasher();
      expect(await h.verify('s3cret-value', 'not a hash')).toBe(false);
      expect(await h.verify('', '')).toBe(false);
    });
  });
}

/** What an adapter under the token issuer contract offers: the issuer, and how its tokens read back. */
export interface TokenIssuerHarness {
  readonly issuer: TokenIssuer;
  read(accessToken: string): AccessTokenClaims;
}

/** The suite every TokenIssuer passes: the readable fake and the JWT service. CONTRACT: expiresIn 43200. */
export function tokenIssuerContract(factory: () => TokenIssuerHarness): void {
  describe('token issuer', () => {
    const claims: AccessTokenClaims = { sub: 'erp-client', credentialId: 7, customerId: 3, scopes: ['receivables:read', 'receivables:write'] };

    it('issues a token that reads back as the claims it was given', () => {
      const h = factory();
      expect(h.read(h.issuer.issue(claims).accessToken)).toEqual(claims);
    });

    it('says the token lasts 43200 seconds', () => {
      expect(factory().issuer.issue(claims).expiresIn).toBe(43_200);
    });

    it('issues different tokens for different customers', () => {
      const { issuer } = factory();
      expect(issuer.issue(claims).accessToken).not.toBe(issuer.issue({ ...claims, customerId: 4 }).accessToken);
    });

    it('keeps a token without scopes readable', () => {
      const h = factory();
      expect(h.read(h.issuer.issue({ ...claims, scopes: [] }).accessToken)).toEqual({ ...claims, scopes: [] });
    });
  });
}
