import { ValidationError } from './domain-error';

const FIRST_BLOCK_WEIGHTS = [7, 1, 3, 9, 7, 1, 3];
const SECOND_BLOCK_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];
const ALIAS_PATTERN = /^[A-Za-z0-9.-]{6,20}$/;

function blockCheckDigit(digits: string, weights: readonly number[]): number {
  const sum = weights.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  return (10 - (sum % 10)) % 10;
}

/** True for a 22-digit CBU or CVU whose two check digits (positions 8 and 22) are right. */
export function isValidCbuCvu(value: string): boolean {
  if (!/^\d{22}$/.test(value)) return false;
  return (
    blockCheckDigit(value.slice(0, 7), FIRST_BLOCK_WEIGHTS) === Number(value[7]) &&
    blockCheckDigit(value.slice(8, 21), SECOND_BLOCK_WEIGHTS) === Number(value[21])
  );
}

export function parseCbuCvu(input: unknown, field = 'cbuCvu'): string {
  if (typeof input !== 'string' || !isValidCbuCvu(input)) {
    throw ValidationError.of(field, 'must be 22 digits with valid check digits');
  }
  return input;
}

/**
 * Builds a valid CVU from an entity code (7 digits: 000 + a 4-digit provider code) and an account number of up
 * to 13 digits, computing both check digits.
 */
export function composeCvu(entityCode: string, accountNumber: bigint): string {
  if (!/^\d{7}$/.test(entityCode)) throw new RangeError('entity code must be 7 digits');
  const account = accountNumber.toString().padStart(13, '0');
  if (account.length !== 13) throw new RangeError('account number must fit 13 digits');
  return entityCode + blockCheckDigit(entityCode, FIRST_BLOCK_WEIGHTS) + account + blockCheckDigit(account, SECOND_BLOCK_WEIGHTS);
}

export function isValidAlias(value: string): boolean {
  return ALIAS_PATTERN.test(value);
}

export function parseAlias(input: unknown, field = 'alias'): string {
  if (typeof input !== 'string' || !isValidAlias(input)) {
    throw ValidationError.of(field, "must be 6 to 20 letters, digits, '.' or '-'");
  }
  return input;
}
