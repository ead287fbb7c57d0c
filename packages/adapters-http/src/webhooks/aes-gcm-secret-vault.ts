import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { WebhookSecretVault } from '@rcs/domain';

const FORMAT = 'v1';
const IV_BYTES = 12;
/** Standard Webhooks asks for 24 to 64 random bytes. */
const SECRET_BYTES = 32;

/**
 * Webhook signing secrets sealed with AES-256-GCM for storage: `v1.<iv>.<ciphertext>.<tag>` (base64url), a fresh
 * random IV per secret, the tag refusing a sealed value that was altered. The key is derived (HKDF-SHA256) from
 * WEBHOOK_SECRET_KEY, so any long random text serves as that key.
 */
export class AesGcmSecretVault implements WebhookSecretVault {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'rcs webhook secrets', 'aes-256-gcm key', 32));
  }

  generate(): string {
    return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
  }

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [FORMAT, iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** Throws when the value was sealed under another key or altered: a configuration fault, not a caller's. */
  open(sealed: string): string {
    const [format, iv, data, tag] = sealed.split('.');
    if (format !== FORMAT || tag === undefined) throw new Error('a stored webhook secret is not in the sealed format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
