import { ValidationError } from '@rcs/domain';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON body's text, refused (400 validation) unless it is UTF-8 (RFC 8259): declared in another charset (the
 * parser reads any utf-*, and an ASCII body in UTF-16 is valid UTF-8 too, so the checks made on its text would read
 * something else than what is parsed), or holding bytes that are not UTF-8 (decoded leniently, as the parser does,
 * each becomes U+FFFD and would be stored in place of what was sent).
 */
export function utf8Text(bytes: Buffer, charset: string): string {
  // The parser names the charset in lower case, utf-8 when the request names none.
  if (charset !== 'utf-8') throw ValidationError.of('body', `must be UTF-8, not ${charset}`);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw ValidationError.of('body', 'must be UTF-8 (it holds a byte sequence that is not)');
  }
}
