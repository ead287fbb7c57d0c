import { ValidateIf } from 'class-validator';

/**
 * Optional but not nullable: left out, the member keeps its value; null is checked like any other value and
 * refused, where @IsOptional would let it through as if it were a value the member can take.
 */
export const Omittable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
