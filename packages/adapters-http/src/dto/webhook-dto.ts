import 'reflect-metadata';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DELIVERY_STATUSES, EVENT_TYPES, type DeliveryStatus, type EventType } from '@rcs/domain';
import { DateOrTimestamp } from './calendar-date';
import { EventTypeFilter } from './event-dto';
import { PageQuery } from './list-query';
import { Omittable } from './omittable';
import { TextFilter } from './text-filter';

/** Every event type once is the most a subscription can name. */
const MAX_EVENTS = EVENT_TYPES.length;

/** POST /v1/webhooks. Whether url is https and events are known event types is the domain's to say. */
export class WebhookBody {
  @IsString()
  @MaxLength(2048)
  url!: string;

  @IsArray()
  @ArrayMaxSize(MAX_EVENTS * 2)
  @IsString({ each: true })
  events!: string[];
}

/** PUT /v1/webhooks/{id}: url, events or both (SPEC "Updates url or events"). */
export class UpdateWebhookBody {
  @Omittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS * 2)
  @IsString({ each: true })
  events?: string[];
}

/** POST /v1/webhooks/{id}/deliveries: a test delivery (eventType) or a redelivery (eventId), one of the two. */
export class DeliveryRequestBody {
  @Omittable()
  @IsString()
  @MaxLength(100)
  eventType?: string;

  @Omittable()
  @IsString()
  @MaxLength(100)
  eventId?: string;
}

/** fromDate and toDate filter on when the attempt was made. */
export class DeliveryListQuery extends PageQuery {
  @IsOptional() @DateOrTimestamp() fromDate?: string;
  @IsOptional() @DateOrTimestamp() toDate?: string;

  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;

  @EventTypeFilter() eventType?: EventType;
  @IsOptional() @TextFilter() @MaxLength(100) eventId?: string;
}
