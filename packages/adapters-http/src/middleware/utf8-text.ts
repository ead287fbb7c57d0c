import { utf8Body, ValidationError } from '@rcs/domain';

/**
 * A JSON body's text, refused (400 validation) unless it is UTF-8 (RFC 8259): declared in another charset (the
 * parser reads any utf-*, and an ASCII body in UTF-16 is valid UTF-8 too, so the checks made on its text would read
 * something else than what is parsed), or holding bytes that are not UTF-8 (utf8Body).
 */
export function utf8Text(bytes: Buffer, charset: string): string {
  // The parser names the charset in lower case, utf-8 when the request names none.
  if (charset !== 'utf-8') throw ValidationError.of('body', `must be UTF-8, not ${charset}`);
  return utf8Body(bytes);
}
