import { ValidateBy } from 'class-validator';
import { INVISIBLE } from '@rcs/domain';

/** A visible character (see INVISIBLE). */
const VISIBLE = `[^${INVISIBLE}]`;
/** A visible character a route code may hold: neither a path separator nor `?` or `#`. */
const VISIBLE_IN_PATH = `[^${INVISIBLE}/?#]`;

/** Visible characters with plain spaces between them, or nothing (emptiness is each member's own rule). */
const spacedOut = (visible: string) => String.raw`(?:${visible}(?:(?:${visible}| )*${visible})?)?`;

const KEY_TEXT = new RegExp(`^${spacedOut(VISIBLE)}$`, 'u');
/** Not `.` or `..` either: a route code is a path segment, which those would leave. */
const ROUTE_CODE = new RegExp(String.raw`^(?!\.{1,2}$)${spacedOut(VISIBLE_IN_PATH)}$`, 'u');

/**
 * Text a value is found by, character for character (a legalNumber, unique per customer; a branchExternalCode, part
 * of a client's key): "B-3 " or "B-3\u200b" beside "B-3" would be two keys that look like one, and one of spaces
 * alone a key that looks like none. Composed (NFC) only: "é" as e and a combining accent is another key that looks
 * like "é", and which of the two a keyboard sends depends on the system.
 */
export function KeyText(): PropertyDecorator {
  return keyTextOf('keyText', KEY_TEXT, 'must not start or end with white space, nor hold control or invisible characters or white space other than the space');
}

/** A route code, matched as KeyText is between a route settlement and the receivables registered under it. */
export function RouteCode(): PropertyDecorator {
  return keyTextOf(
    'routeCode',
    ROUTE_CODE,
    'must not start or end with white space, nor hold control characters, /, ? or #, invisible characters or white space other than the space, nor be . or ..',
  );
}

function keyTextOf(name: string, shape: RegExp, shapeRule: string): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => typeof value === 'string' && shape.test(value) && value === value.normalize('NFC'),
      defaultMessage: (args) => {
        const value = args?.value as unknown;
        const shaped = typeof value === 'string' && shape.test(value);
        return `${args?.property} ${shaped ? 'must be in Unicode composed form (NFC): a letter and its accent as one character' : shapeRule}`;
      },
    },
  });
}
