import { randomBytes } from 'node:crypto';
import { formatMinor, MAX_AMOUNT_MINOR } from '@rcs/domain';

/**
 * Marks, inside JSON.stringify's output, a string that is to go out as the number it holds. A secret of this
 * process, not a fixed text: a caller's string (echoed, or held by an adapter that keeps any text) can never look
 * like it, so no caller can turn its own text into a number or break the JSON around it.
 */
const MARK = `amount-${randomBytes(16).toString('hex')}:`;
/** The mark as JSON.stringify writes it: letters, digits, '-' and ':' need no escaping. */
const MARKED = new RegExp(`"${MARK}(-?\\d+(?:\\.\\d+)?)"`, 'g');

/** An amount whose digits a double cannot hold all of: it stringifies to its mark, which jsonText turns into its digits. */
export class ExactAmount {
  constructor(readonly digits: string) {}

  toJSON(): string {
    return `${MARK}${this.digits}`;
  }
}

/**
 * An amount for the wire, always a JSON number with its exact digits. Up to 9999999999999.99 (15 significant
 * digits) a JavaScript number round-trips them; sums beyond it (balances, settlements, totals) are written from
 * the bigint's own digits, which JSON allows, instead of being rounded to the nearest double.
 */
export function jsonAmount(minor: bigint): number | ExactAmount {
  const digits = formatMinor(minor);
  return (minor < 0n ? -minor : minor) <= MAX_AMOUNT_MINOR ? Number(digits) : new ExactAmount(digits);
}

/** JSON.stringify, with each exact amount written as its number. */
export function jsonText(value: unknown): string | undefined {
  return JSON.stringify(value)?.replace(MARKED, '$1');
}
