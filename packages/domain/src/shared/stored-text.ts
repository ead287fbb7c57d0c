import { ValidationError } from './domain-error';

/**
 * Text the service can store exactly as received, else 400 validation naming the member: the system of record
 * must give back what it was given, and PostgreSQL text holds no NUL character (the statement would fail) while a
 * lone UTF-16 surrogate would be stored silently replaced by U+FFFD.
 */
export function storedText(text: string, name: string): string {
  if (text.includes('\u0000')) throw ValidationError.of(name, 'must not contain the NUL character (\\u0000)');
  if (/\p{Cs}/u.test(text)) throw ValidationError.of(name, 'must be well-formed Unicode (it holds a lone surrogate)');
  return text;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A body's bytes as UTF-8 text, else 400 validation: decoded leniently, each byte that is not would become U+FFFD and be stored in place of what was sent. */
export function utf8Body(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw ValidationError.of('body', 'must be UTF-8 (it holds a byte sequence that is not)');
  }
}
