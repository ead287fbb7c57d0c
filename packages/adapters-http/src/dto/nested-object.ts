import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { allOf } from './all-of';

/**
 * A member holding one object of `dto`, validated member by member. IsObject refuses an array, which ValidateNested
 * alone would take for a list and report item by item ("invoiceData.0: ...").
 */
export const NestedObject = (dto: new () => object): PropertyDecorator =>
  allOf(
    Type(() => dto),
    IsObject(),
    ValidateNested(),
  );
