import { formatMinor, MAX_AMOUNT_MINOR } from './money';

/**
 * Marks, inside JSON.stringify's output, a string that is to go out as the number it holds. A secret of this
 * process, not a fixed text: a caller's string (echoed, or held by an adapter that keeps any text) can never look
 * like it, so no caller can turn its own text into a number or break the JSON around it.
 */
const MARK = `amount-${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')}:`;
/** A JSON number literal, as a pattern's source: what isInexact judges. */
export const JSON_NUMBER = '-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
/** The mark as JSON.stringify writes it: letters, digits, '-', '+', '.' and ':' need no escaping. */
const MARKED = new RegExp(`"${MARK}(${JSON_NUMBER})"`, 'g');
const WHOLE_NUMBER = new RegExp(`^${JSON_NUMBER}$`);

/** A JSON string literal, as a pattern's source: skipped whole, so the digits of a CBU or a key are never read as a number. */
export const JSON_STRING = '"(?:[^"\\\\]|\\\\.)*"';

/** A JSON string or a number literal. */
const JSON_TOKENS = new RegExp(`${JSON_STRING}|(${JSON_NUMBER})`, 'g');

/** Whether a jsonText call is writing: only then does an ExactAmount write the mark. */
let writing = false;

/**
 * A number whose digits a double cannot hold all of: within jsonText it stringifies to its mark, which jsonText
 * turns into its digits. Elsewhere (a log line, a plain JSON.stringify) it is the nearest double, so the mark never
 * leaves this module. Data read back with parseExactJson holds one wherever a number had such digits: a consumer
 * that computes with amounts of event data must read `digits`, not compare or add it as a number.
 */
export class ExactAmount {
  constructor(readonly digits: string) {
    if (!WHOLE_NUMBER.test(digits)) throw new RangeError(`not a JSON number: ${digits}`);
  }

  toJSON(): string | number {
    return writing ? `${MARK}${this.digits}` : Number(this.digits);
  }
}

/**
 * An amount for JSON, always a number with its exact digits. Up to 9999999999999.99 (15 significant digits) a
 * JavaScript number round-trips them; sums beyond it (balances, settlements, totals) are written from the bigint's
 * own digits, which JSON allows, instead of being rounded to the nearest double.
 */
export function jsonAmount(minor: bigint): number | ExactAmount {
  const digits = formatMinor(minor);
  return (minor < 0n ? -minor : minor) <= MAX_AMOUNT_MINOR ? Number(digits) : new ExactAmount(digits);
}

/** JSON.stringify, with each exact amount written as its number. */
export function jsonText(value: unknown): string | undefined {
  writing = true;
  try {
    return JSON.stringify(value)?.replace(MARKED, '$1');
  } finally {
    writing = false;
  }
}

/** The value of a decimal literal as `digits e exponent`, without the zeros that do not change it. */
function canonical(literal: string): string {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  return `${sign}${significant}e${Number(exponent) - fraction.length + digits.length - significant.length}`;
}

/** Whether JSON.parse would read the number literal as another value (trailing zeros and exponents aside). */
export function isInexact(literal: string): boolean {
  if (literal.length <= 15 && !/[.eE]/.test(literal)) return false;
  const read = Number(literal);
  return !Number.isFinite(read) || canonical(literal) !== canonical(String(read));
}

/**
 * JSON.parse, but each number a double cannot hold digit for digit is read as an ExactAmount of its digits, so text
 * that jsonText wrote reads back as it was written and writes out again the same. Text without one (nearly all)
 * costs one scan of its strings and numbers more than JSON.parse.
 */
export function parseExactJson(text: string): unknown {
  if (!hasInexactNumber(text)) return JSON.parse(text);
  const marked = text.replace(JSON_TOKENS, (token: string, literal: string | undefined) =>
    literal !== undefined && isInexact(literal) ? `"${MARK}${literal}"` : token,
  );
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? new ExactAmount(value.slice(MARK.length)) : value,
  );
}

/** Whether any number literal of the JSON text is one JSON.parse would read as another value. */
export function hasInexactNumber(text: string): boolean {
  for (const [, literal] of text.matchAll(JSON_TOKENS)) {
    if (literal !== undefined && isInexact(literal)) return true;
  }
  return false;
}
