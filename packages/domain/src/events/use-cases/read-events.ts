import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { EventFeedFilter, EventFeedPage, EventListFilter, EventQueries, FeedPosition, StoredEvent } from '../event-feed';

export class GetEvent {
  constructor(private readonly queries: EventQueries) {}

  async execute(input: { customerId: number; eventId: string }): Promise<StoredEvent> {
    return ownedBy(await this.queries.get(input.eventId), input.customerId, 'event', input.eventId);
  }
}

export class ListEvents {
  constructor(private readonly queries: EventQueries) {}

  execute(input: { filter: EventListFilter; page: PageRequest }): Promise<Page<StoredEvent>> {
    return this.queries.list(input.filter, input.page);
  }
}

export class FollowEvents {
  constructor(private readonly queries: EventQueries) {}

  execute(input: { filter: EventFeedFilter; after?: FeedPosition; count: number }): Promise<EventFeedPage> {
    return this.queries.feed(input.filter, input.after, input.count);
  }
}
