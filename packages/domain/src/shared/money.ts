import { ValidationError } from './domain-error';

export const SUPPORTED_CURRENCIES = ['ARS'] as const;
export type CurrencyCode = (typeof SUPPORTED_CURRENCIES)[number];

/**
 * An ISO 4217 code in its form, three capital letters: "ars" or "ARSS" is a malformed request (400), while a code
 * of that form other than the account's is the business refusal of each resource (422 unmatching-...-currency-code).
 */
export const CURRENCY_CODE_FORM = /^[A-Z]{3}$/;
export const CURRENCY_CODE_RULE = 'must be an ISO 4217 code, three capital letters (ARS is the one supported)';

/** Largest amount that still round-trips exactly through a JSON number with 2 decimals (CONTRACT "Amounts"). */
export const MAX_AMOUNT_MINOR = 999_999_999_999_999n;

// Zeros past the cents are the same amount, as the JSON number 1.100 is 1.1: read alike in a string.
const AMOUNT_PATTERN = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2})0*)?$/;

/**
 * An exact amount: integer minor units (cents) as bigint plus a currency. Parsed once at the edge, rejecting a
 * third decimal instead of rounding; no arithmetic ever happens on a JS number.
 */
export class Money {
  private constructor(
    readonly minor: bigint,
    readonly currency: CurrencyCode,
  ) {}

  static ofMinor(minor: bigint, currency: CurrencyCode = 'ARS'): Money {
    if (minor < 0n) throw new RangeError(`money cannot be negative: ${minor}`);
    return new Money(minor, currency);
  }

  static zero(currency: CurrencyCode = 'ARS'): Money {
    return new Money(0n, currency);
  }

  /**
   * Parses a JSON number or a decimal string: > 0, at most 2 decimals, at most 9999999999999.99. A JSON number
   * is read through its shortest round-trip text, which is exact for every value in that range.
   */
  static parse(input: unknown, field = 'amount', currency: CurrencyCode = 'ARS'): Money {
    // Exponent notation (1e-7, 1e21) only appears outside the accepted range; the pattern rejects it.
    const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : input;
    if (typeof text !== 'string') throw ValidationError.of(field, 'must be a decimal number');
    const match = AMOUNT_PATTERN.exec(text);
    if (!match) {
      throw ValidationError.of(field, 'must be a positive decimal with at most 2 decimals and 13 integer digits');
    }
    const minor = BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
    if (minor === 0n) throw ValidationError.of(field, 'must be greater than 0');
    if (minor > MAX_AMOUNT_MINOR) throw ValidationError.of(field, 'must be at most 9999999999999.99');
    return new Money(minor, currency);
  }

  plus(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.minor + other.minor, this.currency);
  }

  minus(other: Money): Money {
    this.assertSameCurrency(other);
    if (other.minor > this.minor) throw new RangeError('money cannot go below zero');
    return new Money(this.minor - other.minor, this.currency);
  }

  compare(other: Money): -1 | 0 | 1 {
    this.assertSameCurrency(other);
    return this.minor === other.minor ? 0 : this.minor < other.minor ? -1 : 1;
  }

  equals(other: Money): boolean {
    return this.currency === other.currency && this.minor === other.minor;
  }

  /** Decimal text with exactly the digits needed ("12.5", "3", "0.07"). */
  toDecimalString(): string {
    return formatMinor(this.minor);
  }

  /** The JSON number for the wire; exact because amounts are capped below 2^53 cents. */
  toJSONNumber(): number {
    return Number(this.toDecimalString());
  }

  private assertSameCurrency(other: Money): void {
    // String(): while ARS is the only currency the compiler types both sides of a mismatch as never.
    if (other.currency !== this.currency) throw new RangeError(`currency mismatch: ${String(this.currency)} vs ${String(other.currency)}`);
  }
}

/** Formats signed minor units as a decimal string; used where sums can be negative (net totals). */
export function formatMinor(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  const units = abs / 100n;
  const cents = abs % 100n;
  if (cents === 0n) return `${sign}${units}`;
  return `${sign}${units}.${cents.toString().padStart(2, '0').replace(/0$/, '')}`;
}
