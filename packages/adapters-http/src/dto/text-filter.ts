import { IsNotEmpty, IsString } from 'class-validator';
import { allOf } from './all-of';

/**
 * A list's text filter, matched exactly: one value, not empty. `?alias=` would list what has an empty alias, which
 * nothing has, and answer an empty page where the caller most likely meant no filter.
 */
export function TextFilter(): PropertyDecorator {
  return allOf(
    IsString({ message: ({ property }) => `${property} must be given once, as text` }),
    IsNotEmpty({ message: ({ property }) => `${property} must not be empty: leave the parameter out to list without it` }),
  );
}
