import { Matches } from 'class-validator';

/** No control character, no path separator (a route code is a path segment), no white space at either end. */
const ROUTE_CODE = /^(?:[^\s\p{Cc}/?#](?:[^\p{Cc}/?#]*[^\s\p{Cc}/?#])?)?$/u;

/**
 * A route code, matched character for character between a route settlement and the receivables registered under
 * it: "R1 " beside "R1" would be two routes that look like one, and a code of spaces alone one that looks like none.
 * Emptiness is the member's own rule (required, or null to clear it).
 */
export function RouteCode(): PropertyDecorator {
  return Matches(ROUTE_CODE, { message: ({ property }) => `${property} must not start or end with white space, nor hold control characters, /, ? or #` });
}
