import 'reflect-metadata';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { EntityId, EntityIdParam } from './entity-id';
import { CalendarDate } from './calendar-date';
import { PageQuery } from './list-query';
import { RouteCode } from './key-text';
import { TextFilter } from './text-filter';

export class RouteSettlementBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @RouteCode()
  routeCode!: string;

  @CalendarDate()
  date!: string;

  @EntityId()
  associateId!: number;
}

/** fromDate and toDate filter on the settlement's day (YYYY-MM-DD), inclusive. */
export class RouteSettlementListQuery extends PageQuery {
  @IsOptional() @EntityIdParam() associateId?: number;
  @IsOptional() @TextFilter() routeCode?: string;
  @IsOptional() @CalendarDate() fromDate?: string;
  @IsOptional() @CalendarDate() toDate?: string;
}
