import { parse, type ParsedUrlQuery } from 'node:querystring';
import { ValidationError } from '@rcs/domain';

const strictDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    throw ValidationError.of('query', `${JSON.stringify(text)} is not valid percent-encoded UTF-8`);
  }
};

/**
 * The query as Node's querystring reads it (Express's "simple" parser: `a=1&a=2` is a list), except that text
 * which does not percent-decode to UTF-8 is 400 validation, as in a path, instead of kept as written:
 * `?externalId=%FF` would filter by the three characters `%FF`.
 */
export function strictQuery(text: string | null): ParsedUrlQuery {
  // querystring falls back to keeping text its decoder throws on, so each part is decoded here first.
  for (const part of (text ?? '').split(/[&=]/)) strictDecode(part.replace(/\+/g, ' '));
  return parse(text ?? '');
}
