import { secretHasherContract, tokenIssuerContract } from '@rcs/domain/testing';
import { JwtTokenService } from '../src/auth/jwt-token-service';
import { ScryptSecretHasher } from '../src/auth/scrypt-secret-hasher';

/** scrypt and JWT pass the contracts the plain and readable fakes pass. */
describe('scrypt secret hasher', () => {
  secretHasherContract(() => new ScryptSecretHasher());
});

describe('JWT token service', () => {
  tokenIssuerContract(() => {
    const tokens = new JwtTokenService('x'.repeat(32));
    return { issuer: tokens, read: (token) => tokens.verify(token) };
  });
});
