import { Matches } from 'class-validator';

/**
 * An ISO 4217 code in its form, three capital letters: "ars" or "ARSS" is a malformed request (400), while a code
 * of that form other than the account's is the business refusal of each resource (422 unmatching-...-currency-code).
 */
export function CurrencyCode(): PropertyDecorator {
  return Matches(/^[A-Z]{3}$/, { message: ({ property }) => `${property} must be an ISO 4217 code, three capital letters (ARS is the one supported)` });
}
