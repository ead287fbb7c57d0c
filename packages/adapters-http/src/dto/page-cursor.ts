import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { isFeedPosition, type FeedPosition, type PageKey } from '@rcs/domain';
import { allOf } from './all-of';
import { isEntityId } from './entity-id';

/** A sort value as the lists give it: a UTC instant, to the microsecond, in the years PostgreSQL has (0001 to 9999). */
const INSTANT = /^((?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,6})?Z$/;

/** The opaque text a Link header carries for the page starting after `key`. */
export function cursorOf(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.at, key.id])).toString('base64url');
}

/** The key a cursor names, or undefined for text no list gave (its instant must be a real one: 02-30 is not). */
export function keyOfCursor(cursor: string): PageKey | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
  const [at, id] = decoded as [unknown, unknown];
  const instant = typeof at === 'string' ? INSTANT.exec(at) : null;
  if (instant === null || !isEntityId(id)) return undefined;
  const date = new Date(`${instant[1]}Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(instant[1]) ? { at: at as string, id } : undefined;
}

/** The opaque text a feed's Link header carries for the page starting after `position`. */
export function feedCursorOf(position: FeedPosition): string {
  return Buffer.from(JSON.stringify(['feed', position])).toString('base64url');
}

/** Where a feed's cursor says its page starts, or undefined for text no feed gave. */
function feedPlaceOfCursor(cursor: string): { position: FeedPosition } | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const [kind, position] = Array.isArray(decoded) && decoded.length === 2 ? (decoded as [unknown, unknown]) : [];
    return kind === 'feed' && typeof position === 'string' && isFeedPosition(position) ? { position } : undefined;
  } catch {
    return undefined;
  }
}

/** A query parameter holding a list's cursor: decoded into its PageKey, or refused (text no list gave, or the parameter given twice). */
export const PageCursor = (): PropertyDecorator => cursorDecodedBy(keyOfCursor);

/** A query parameter holding a feed's cursor: decoded into where its page starts, or refused like a list's. */
export const FeedCursor = (): PropertyDecorator => cursorDecodedBy(feedPlaceOfCursor);

function cursorDecodedBy(decode: (cursor: string) => object | undefined): PropertyDecorator {
  return allOf(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? (decode(value) ?? value) : value)),
    ValidateBy({
      name: 'isPageCursor',
      validator: {
        validate: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
        defaultMessage: () => 'cursor must be the cursor of a Link header',
      },
    }),
  );
}
