import 'reflect-metadata';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError as ClassValidationError } from 'class-validator';
import { ValidationError, type InvalidParam } from '@rcs/domain';

function flatten(errors: readonly ClassValidationError[], prefix = ''): InvalidParam[] {
  return errors.flatMap((error) => {
    const name = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((reason) => ({ name, reason }));
    return [...own, ...flatten(error.children ?? [], name)];
  });
}

/**
 * Validates a body or query against a DTO class. Unknown members are stripped (never stored, never
 * fingerprinted); a wrong type or a missing required member is 400 validation naming each member at fault.
 */
export function parseInput<T extends object>(dto: ClassConstructor<T>, plain: unknown, what: 'body' | 'query'): T {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw ValidationError.of(what, what === 'body' ? 'must be a JSON object (Content-Type: application/json)' : 'is malformed');
  }
  const instance = plainToInstance(dto, plain, { exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: true, validationError: { target: false, value: false } });
  if (errors.length > 0) throw new ValidationError(flatten(errors));
  return instance;
}

/** A path id: a positive integer that fits an int64 JSON number safely. */
export function parseId(raw: unknown, name = 'id'): number {
  const text = String(raw);
  const value = Number(text);
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(value)) {
    throw ValidationError.of(name, 'must be a positive integer');
  }
  return value;
}
