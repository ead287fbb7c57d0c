import { Matches } from 'class-validator';

/** A character a route code may hold anywhere: visible, neither a path separator nor `?` or `#`. */
const VISIBLE = String.raw`[^\p{C}\p{Z}\s/?#]`;

/**
 * Visible characters, plain spaces between them, and not `.` or `..` (a route code is a path segment, which those
 * would leave): no control or invisible character (U+200B, U+202E), no other white space (U+00A0).
 */
const ROUTE_CODE = new RegExp(String.raw`^(?!\.{1,2}$)(?:${VISIBLE}(?:(?:${VISIBLE}| )*${VISIBLE})?)?$`, 'u');

/**
 * A route code, matched character for character between a route settlement and the receivables registered under
 * it: "R1 " beside "R1" would be two routes that look like one, and a code of spaces alone one that looks like none.
 * Emptiness is the member's own rule (required, or null to clear it).
 */
export function RouteCode(): PropertyDecorator {
  return Matches(ROUTE_CODE, {
    message: ({ property }) =>
      `${property} must not start or end with white space, nor hold control characters, /, ? or #, invisible characters or white space other than the space, nor be . or ..`,
  });
}
