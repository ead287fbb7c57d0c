import { AesGcmSecretVault } from '../src/webhooks/aes-gcm-secret-vault';

describe('AES-256-GCM secret vault', () => {
  const vault = new AesGcmSecretVault('a-key-for-tests-that-is-long-enough-to-use');

  it('makes whsec_ secrets of 32 random bytes, each different', () => {
    const [a, b] = [vault.generate(), vault.generate()];
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('seals a secret into text that does not hold it, differently each time, and opens it back', () => {
    const secret = vault.generate();
    const [once, twice] = [vault.seal(secret), vault.seal(secret)];
    expect(once).not.toContain(secret.slice(6, 20));
    expect(once).not.toBe(twice);
    expect([vault.open(once), vault.open(twice)]).toEqual([secret, secret]);
  });

  it('refuses to open what another key sealed, or what was altered', () => {
    const sealed = vault.seal(vault.generate());
    expect(() => new AesGcmSecretVault('another-key-for-tests-that-is-long-enough').open(sealed)).toThrow();
    const [format, iv, data, tag] = sealed.split('.');
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    expect(() => vault.open([format, iv, flipped, tag].join('.'))).toThrow();
    expect(() => vault.open('plain')).toThrow('a stored webhook secret is not in the sealed format');
  });
});
