import 'reflect-metadata';
import { IsIn, IsOptional } from 'class-validator';
import { EVENT_TYPES, type EventType } from '@rcs/domain';
import { DateOrTimestamp } from './calendar-date';
import { PageQuery } from './list-query';

/** GET /v1/events: fromDate and toDate bound the event's createdAt. */
export class EventListQuery extends PageQuery {
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `type must be one of ${EVENT_TYPES.join(', ')}` })
  type?: EventType;

  @IsOptional() @DateOrTimestamp() fromDate?: string;
  @IsOptional() @DateOrTimestamp() toDate?: string;
}
