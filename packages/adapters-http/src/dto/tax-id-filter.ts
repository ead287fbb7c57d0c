import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import { withoutTaxIdSeparators } from '@rcs/domain';
import { allOf } from './all-of';

/** A taxId query filter: dashes and spaces dropped, then exactly 11 digits. */
export function TaxIdFilter(): PropertyDecorator {
  return allOf(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? withoutTaxIdSeparators(value) : value)),
    Matches(/^\d{11}$/, { message: 'taxId must have 11 digits' }),
  );
}
