import 'reflect-metadata';
import { IsIn, IsOptional } from 'class-validator';
import { EVENT_TYPES, type EventType } from '@rcs/domain';
import { allOf } from './all-of';
import { DateOrTimestamp } from './calendar-date';
import { PageQuery } from './list-query';

/** A list's filter on the event type: an unknown one is 400 validation naming it, never an empty list. */
export const EventTypeFilter = (): PropertyDecorator =>
  allOf(IsOptional(), IsIn(EVENT_TYPES, { message: ({ property }) => `${property} must be one of ${EVENT_TYPES.join(', ')}` }));

/** GET /v1/events: fromDate and toDate bound the event's createdAt. */
export class EventListQuery extends PageQuery {
  @EventTypeFilter() type?: EventType;

  @IsOptional() @DateOrTimestamp() fromDate?: string;
  @IsOptional() @DateOrTimestamp() toDate?: string;
}
