import { Matches } from 'class-validator';
import { CURRENCY_CODE_FORM, CURRENCY_CODE_RULE } from '@rcs/domain';

/** A currency code member: its form checked here (400), whether it is the account's by each resource (422). */
export function CurrencyCode(): PropertyDecorator {
  return Matches(CURRENCY_CODE_FORM, { message: ({ property }) => `${property} ${CURRENCY_CODE_RULE}` });
}
