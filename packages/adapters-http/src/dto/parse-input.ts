import 'reflect-metadata';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError as ClassValidationError } from 'class-validator';
import { storedText, ValidationError, type InvalidParam } from '@rcs/domain';
import { idFromText, isEntityId } from './entity-id';
import { cacheValidationMetadata } from './validation-metadata-cache';

cacheValidationMetadata();

/** Checks of a member's type: a member of the wrong type is reported for its type alone, not for its length too. */
const TYPE_CHECKS = new Set(['isString', 'isInt', 'isArray', 'isObject', 'isEntityId']);

const NOT_A_PARAMETER = 'is not a parameter of this operation';

/**
 * Our words for class-validator's checks whose own name the wrong thing: a nested list's item that is not an object
 * (its words name the list), a query parameter no DTO member has ("property x should not exist").
 */
const WORDS_FOR: Readonly<Record<string, string>> = {
  nestedValidation: 'must be an object',
  whitelistValidation: NOT_A_PARAMETER,
};

/** What is wrong with one member, each reason once. */
function reasonsOf(error: ClassValidationError, constraints: ReadonlyArray<[string, string]>, typeChecks: ReadonlyArray<[string, string]>): string[] {
  if (constraints.length === 0) return [];
  // Optional members are not checked when absent (nor nullable ones when null), so an absent or null one at fault
  // is required or not nullable: saying so beats listing every check it fails ("must be shorter than 254 characters").
  if (error.value === undefined) return ['is required'];
  if (error.value === null) return ['must not be null'];
  // class-validator's words for an item of a nested list that is not an object name the list, not the item.
  return (typeChecks.length ? typeChecks : constraints).map(([check, reason]) => WORDS_FOR[check] ?? reason);
}

function flatten(errors: readonly ClassValidationError[], prefix = ''): InvalidParam[] {
  return errors.flatMap((error) => {
    const name = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    const typeChecks = constraints.filter(([check]) => TYPE_CHECKS.has(check));
    const own = reasonsOf(error, constraints, typeChecks).map((reason) => ({ name, reason }));
    // A member of the wrong type (an array where an object belongs) has no members of its own worth reporting.
    return typeChecks.length ? own : [...own, ...flatten(error.children ?? [], name)];
  });
}

/**
 * Members named after an object's machinery (`__proto__`, `constructor`, `toString`, `hasOwnProperty`...): never a
 * DTO's; class-transformer fails on a nested one, and class-validator's whitelist takes some of them for members
 * every DTO has.
 */
const isMachinery = (key: string) => key in Object.prototype || key === 'prototype';

/** Deeper than any member of any body; a megabyte of brackets would otherwise exhaust the stack walking it. */
const MAX_DEPTH = 32;

/**
 * A copy of parsed JSON or query values without machinery members; each string that is not storedText adds its
 * member to `problems` (all of them, not the first alone). Too deep a value is refused at once: a walk of it would
 * exhaust the stack.
 */
export function storable(value: unknown, name: string, problems: InvalidParam[], depth = 0): unknown {
  if (typeof value === 'string') {
    try {
      return storedText(value, name);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...error.invalidParams);
      return value;
    }
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth === MAX_DEPTH) throw ValidationError.of(name, `nests more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.map((item, index) => storable(item, `${name}[${index}]`, problems, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (!isMachinery(key)) copy[key] = storable(member, name ? `${name}.${key}` : key, problems, depth + 1);
  }
  return copy;
}

/**
 * Validates a body or query against a DTO class. A body's unknown members are stripped (never stored, never
 * fingerprinted), a query's refused; a wrong type or a missing required member is 400 validation naming each member
 * at fault.
 */
export function parseInput<T extends object>(dto: ClassConstructor<T>, plain: unknown, what: 'body' | 'query'): T {
  const copy = storableObject(plain, what);
  const instance = plainToInstance(dto, copy, { exposeDefaultValues: true });
  // An unknown query parameter is refused, not ignored: a misspelt filter (?staus=PAID) would list everything.
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: what === 'query',
    forbidUnknownValues: true,
    validationError: { target: false, value: true },
  });
  if (errors.length > 0) throw new ValidationError(flatten(errors));
  return instance;
}

/**
 * A body or query as an object of members, copied by storable; 400 validation for text in it that cannot be stored,
 * and for a query parameter named after an object's machinery, refused as every unknown parameter is (a body's
 * unknown members, those included, are dropped).
 */
export function storableObject(plain: unknown, what: 'body' | 'query'): object {
  assertObject(plain, what);
  const problems: InvalidParam[] =
    what === 'query'
      ? Object.keys(plain)
          .filter(isMachinery)
          .map((name) => ({ name, reason: NOT_A_PARAMETER }))
      : [];
  const copy = storable(plain, '', problems) as object;
  if (problems.length > 0) throw new ValidationError(problems);
  return copy;
}

/** A body or query is an object of members; anything else (null, an array, a number) is 400 validation. */
export function assertObject(plain: unknown, what: 'body' | 'query'): asserts plain is object {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw ValidationError.of(what, what === 'body' ? 'must be a JSON object (Content-Type: application/json)' : 'is malformed');
  }
}

/** A path id: a positive integer that fits an int64 JSON number safely. */
export function parseId(raw: unknown, name = 'id'): number {
  const value = idFromText(String(raw));
  if (!isEntityId(value)) throw ValidationError.of(name, 'must be a positive integer');
  return value;
}

/** A path segment naming a resource by its text (a route code). */
export const parseName = (raw: unknown, name: string): string => storedText(String(raw), name);

/**
 * The query of a list nested under a resource (GET /v1/clients/{id}/receivable-accounts): the list's own, less the
 * filter its path fixes, which is refused as any unknown parameter is (given, it would contradict the path or
 * repeat it).
 */
export function nestedListQuery<T extends object>(dto: ClassConstructor<T>, plain: unknown, fixedByPath: keyof T & string): T {
  const query = parseInput(dto, plain, 'query');
  if (query[fixedByPath] !== undefined) throw ValidationError.of(fixedByPath, `${NOT_A_PARAMETER}: its path names it`);
  return query;
}
