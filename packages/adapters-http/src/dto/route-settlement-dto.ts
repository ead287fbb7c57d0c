import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { CalendarDate } from './calendar-date';
import { PageQuery } from './list-query';

export class RouteSettlementBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[^/?#]+$/, { message: 'routeCode must not contain /, ? or #' })
  routeCode!: string;

  @CalendarDate()
  date!: string;

  @IsInt({ message: 'associateId must be an integer' })
  @Min(1)
  associateId!: number;
}

/** fromDate and toDate filter on the settlement's day (YYYY-MM-DD), inclusive. */
export class RouteSettlementListQuery extends PageQuery {
  @IsOptional() @Type(() => Number) @IsInt({ message: 'associateId must be an integer' }) associateId?: number;
  @IsOptional() @IsString() routeCode?: string;
  @IsOptional() @CalendarDate() fromDate?: string;
  @IsOptional() @CalendarDate() toDate?: string;
}
