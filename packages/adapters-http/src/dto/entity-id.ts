import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { allOf } from './all-of';

/**
 * An id: int64 in storage and a JSON number on the wire, so a positive integer that a JSON number carries
 * exactly. A larger integer (1e21) would reach the database as a value it cannot compare, and fail there.
 */
export const isEntityId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

/** An id written as text (a path segment, a query parameter), or NaN: decimal digits only, no sign, exponent or padding. */
export const idFromText = (text: string): number => (/^[1-9]\d{0,15}$/.test(text) ? Number(text) : Number.NaN);

/** A body member holding an id (or, with `each`, ids). */
export function EntityId(options: ValidationOptions = {}): PropertyDecorator {
  return ValidateBy(
    { name: 'isEntityId', validator: { validate: isEntityId, defaultMessage: (args) => `${args?.property} must be a positive integer` } },
    options,
  );
}

/** A query parameter holding one id, as its text. */
export function EntityIdParam(): PropertyDecorator {
  return allOf(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? idFromText(value) : value)),
    EntityId(),
  );
}
