import { randomBytes } from 'node:crypto';
import type { SecretGenerator } from '@rcs/domain';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomText(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export class RandomSecretGenerator implements SecretGenerator {
  clientId(): string {
    return `cli_${randomText(20)}`;
  }

  /** About 238 bits of entropy. */
  clientSecret(): string {
    return `sk_${randomText(40)}`;
  }
}
