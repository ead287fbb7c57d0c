import { ValidationError } from '@rcs/domain';

/** A JSON string (skipped whole, so the digits of a CBU or a key are never read as a number) or a number. */
const TOKENS = /"(?:[^"\\]|\\.)*"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** The value of a decimal literal as `digits e exponent`, without the zeros that do not change it. */
function canonical(literal: string): string {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  return `${sign}${significant}e${Number(exponent) - fraction.length + digits.length - significant.length}`;
}

/**
 * JSON.parse reads every number as a double, so `1.0000000000000001` would arrive as 1 and an id past 2^53 as its
 * neighbour: silently another amount or another resource. Each number literal of the body must be the value the
 * parse gives (trailing zeros and exponents aside), else the body is refused, telling how to send it exactly.
 */
export function assertNumbersExact(text: string): void {
  for (const [, literal] of text.matchAll(TOKENS)) {
    if (literal === undefined || (literal.length <= 15 && !/[.eE]/.test(literal))) continue;
    const read = Number(literal);
    if (!Number.isFinite(read) || canonical(literal) !== canonical(String(read))) {
      throw ValidationError.of('body', `the number ${literal} cannot be read exactly (a double holds about 15 digits): send amounts as decimal strings`);
    }
  }
}
