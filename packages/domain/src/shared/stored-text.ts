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
