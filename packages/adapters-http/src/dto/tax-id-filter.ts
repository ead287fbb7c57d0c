import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';

/** A taxId query filter: dashes and spaces dropped, then exactly 11 digits. */
export function TaxIdFilter(): PropertyDecorator {
  const canonical = Transform(({ value }) => (typeof value === 'string' ? value.replace(/[\s-]/g, '') : value));
  const format = Matches(/^\d{11}$/, { message: 'taxId must have 11 digits' });
  return (target, key) => {
    canonical(target, key);
    format(target, key);
  };
}
