import { ValidationError } from '@rcs/domain';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON body's text, refused (400 validation) when its bytes are not UTF-8: decoded leniently, as the JSON parser
 * does, each bad byte becomes U+FFFD and would be stored in place of what was sent.
 */
export function utf8Text(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw ValidationError.of('body', 'must be UTF-8 (it holds a byte sequence that is not)');
  }
}
