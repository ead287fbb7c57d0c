import 'reflect-metadata';
import { Equals, IsIn, IsOptional } from 'class-validator';
import { EVENT_TYPES, type EventType } from '@rcs/domain';
import { allOf } from './all-of';
import { DateOrTimestamp } from './calendar-date';
import { PageCount, PageQuery } from './list-query';
import { FeedCursor } from './page-cursor';

/** A list's filter on the event type: an unknown one is 400 validation naming it, never an empty list. */
export const EventTypeFilter = (): PropertyDecorator =>
  allOf(IsOptional(), IsIn(EVENT_TYPES, { message: ({ property }) => `${property} must be one of ${EVENT_TYPES.join(', ')}` }));

/** GET /v1/events: fromDate and toDate bound the event's createdAt. */
export class EventListQuery extends PageQuery {
  @IsOptional()
  @Equals('-createdAt', { message: 'sort must be -createdAt (the default) or feed' })
  sort?: '-createdAt';

  @EventTypeFilter() type?: EventType;

  @IsOptional() @DateOrTimestamp() fromDate?: string;
  @IsOptional() @DateOrTimestamp() toDate?: string;
}

/** GET /v1/events?sort=feed: a page of the feed, from its cursor, or from fromDate's first event, or from the oldest. */
export class EventFeedQuery {
  @Equals('feed') sort!: 'feed';

  @PageCount() count?: number;

  @IsOptional() @FeedCursor() cursor?: { position: string };

  @IsOptional() @DateOrTimestamp() fromDate?: string;
}
