import { DomainError } from '@rcs/domain';
import { JwtTokenService, TOKEN_TTL_SECONDS } from '../src/auth/jwt-token-service';

const claims = { sub: 'erp', customerId: 3, credentialId: 7, scopes: ['receivables:read'] };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).code;
  }
  return 'accepted';
};

describe('JWT token service', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a token it has already verified with the same claims, and refuses it once it expires', () => {
    jest.useFakeTimers({ now: new Date('2026-05-01T12:00:00Z') });
    const tokens = new JwtTokenService('x'.repeat(32));
    const { accessToken } = tokens.issue(claims);
    expect(tokens.verify(accessToken)).toEqual(claims);
    expect(tokens.verify(accessToken)).toEqual(claims);
    jest.setSystemTime(new Date(Date.now() + TOKEN_TTL_SECONDS * 1000));
    expect(codeOf(() => tokens.verify(accessToken))).toBe('token-expired');
  });

  it('refuses a token whose signature does not match, even beside a verified one', () => {
    const tokens = new JwtTokenService('x'.repeat(32));
    const { accessToken } = tokens.issue(claims);
    tokens.verify(accessToken);
    const [header, payload] = accessToken.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), customerId: 4 })).toString('base64url');
    expect(codeOf(() => tokens.verify(`${header}.${forged}.${accessToken.split('.')[2]}`))).toBe('invalid-token');
    expect(codeOf(() => new JwtTokenService('y'.repeat(32)).verify(accessToken))).toBe('invalid-token');
  });
});
