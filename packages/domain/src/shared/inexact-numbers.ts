import type { InvalidParam } from './domain-error';
import { hasInexactNumber, isInexact, JSON_NUMBER, JSON_STRING } from './exact-json';

/** A JSON string, a number, or the punctuation that says where in the body a number is. */
const TOKENS_WITH_PLACES = new RegExp(`${JSON_STRING}|${JSON_NUMBER}|[{}[\\],:]`, 'g');

/** An object or array being read: the member name its next value takes, or its next index. */
interface Place {
  readonly array: boolean;
  key: string;
  index: number;
  expectingKey: boolean;
}

const nameOf = (places: readonly Place[]) =>
  places.reduce((name, place) => (place.array ? `${name}[${place.index}]` : name ? `${name}.${place.key}` : place.key), '') || 'body';

/** Each inexact literal, named by where it is in the body (`items[3].amount`), as validation names members. */
function placedProblems(text: string): InvalidParam[] {
  const places: Place[] = [];
  const problems: InvalidParam[] = [];
  for (const [token] of text.matchAll(TOKENS_WITH_PLACES)) {
    const top = places[places.length - 1];
    if (token === '{' || token === '[') places.push({ array: token === '[', key: '', index: 0, expectingKey: token === '{' });
    else if (token === '}' || token === ']') places.pop();
    else if (token === ',' && top?.array) top.index++;
    else if (token === ',' || token === ':') {
      if (top) top.expectingKey = token === ',';
    } else if (token.startsWith('"')) {
      if (top?.expectingKey) top.key = JSON.parse(token) as string;
    } else if (isInexact(token)) {
      problems.push({
        name: nameOf(places),
        reason: `the number ${token} cannot be read exactly (a double holds about 15 digits): send amounts as decimal strings`,
      });
    }
  }
  return problems;
}

/**
 * JSON.parse reads every number as a double, so `1.0000000000000001` would arrive as 1 and an id past 2^53 as its
 * neighbour: silently another amount or another resource. Each number literal of the body must be the value the
 * parse gives (trailing zeros and exponents aside); those that are not, named by where they are in the body. The
 * common case, a body without any, costs one scan of its strings and numbers.
 */
export function inexactNumbers(text: string): InvalidParam[] {
  return hasInexactNumber(text) ? placedProblems(text) : [];
}
