import {
  CLAIM_SCAN_FACTOR,
  ConcurrentModificationError,
  EXPIRED_REASON,
  Webhook,
  runOfFailures,
  type ClaimedDelivery,
  type Completion,
  type DeliveryClaim,
  type DeliveryLease,
  type ScheduledDelivery,
  type DeliveryOutcome,
  type NewWebhook,
  type NewWebhookDelivery,
  type Page,
  type PageRequest,
  type WebhookDelivery,
  type WebhookDeliveryListFilter,
  type WebhookDeliveryRepository,
  type WebhookListFilter,
  type WebhookQueries,
  type WebhookRepository,
  type WebhookStatus,
} from '../../src';
import { nextId, saveVersioned, type StoredDelivery, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

/** The history's view of a stored attempt. */
const historyOf = ({ payload: _payload, scheduleStep: _step, claimedUntil: _claimedUntil, ...delivery }: StoredDelivery): WebhookDelivery => delivery;

/** Held: PENDING, neither due nor leased. */
const isHeld = (d: StoredDelivery) => d.status === 'PENDING' && d.nextAttemptAt === null && d.claimedUntil === null;

export class InMemoryWebhookRepository implements WebhookRepository {
  constructor(private readonly ref: TablesRef) {}

  async getForUpdate(id: number): Promise<Webhook | undefined> {
    const found = this.ref.tables.webhooks.get(id);
    return found && Webhook.rehydrate(found);
  }

  async insert(webhook: NewWebhook): Promise<Webhook> {
    const stored = { ...webhook, id: nextId(this.ref.tables, 'webhook') };
    this.ref.tables.webhooks.set(stored.id, stored);
    return Webhook.rehydrate(stored);
  }

  async update(webhook: Webhook): Promise<void> {
    const next = webhook.toSnapshot();
    saveVersioned(this.ref.tables.webhooks, next, () => new ConcurrentModificationError('webhook', next.id));
  }

  async delete(id: number): Promise<void> {
    if (this.ref.tables.webhooks.delete(id)) this.ref.tables.deletedWebhooks.add(id);
  }

  async recordDelivery(id: number, at: Date, outcomes: readonly DeliveryOutcome[]): Promise<number | undefined> {
    const { webhooks, webhookFailures } = this.ref.tables;
    const found = webhooks.get(id);
    if (!found) return undefined;
    webhooks.set(id, { ...found, lastDeliveryAt: at, lastDeliveryStatus: outcomes[outcomes.length - 1] });
    const { after, longest } = runOfFailures(webhookFailures.get(id) ?? 0, outcomes);
    webhookFailures.set(id, after);
    return longest;
  }

  /** Transactions run one at a time here: nothing to order. */
  async lockForRecording(ids: readonly number[]): Promise<ReadonlySet<number>> {
    return new Set(ids.filter((id) => this.ref.tables.webhooks.has(id)));
  }

  /** Transactions run one at a time here: none is ever being changed by another, and a status read holds to the end. */
  async lockedStatuses(ids: readonly number[]): Promise<Map<number, WebhookStatus>> {
    const found = [...ids]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const webhook = this.ref.tables.webhooks.get(id);
        return webhook ? [[id, webhook.status] as const] : [];
      });
    return new Map(found);
  }

  async resetFailures(id: number): Promise<void> {
    this.ref.tables.webhookFailures.delete(id);
  }

  async ofCustomers(customerIds: readonly number[]): Promise<Webhook[]> {
    return [...this.ref.tables.webhooks.values()].filter((w) => customerIds.includes(w.customerId)).map((w) => Webhook.rehydrate(w));
  }

  async findMany(ids: readonly number[]): Promise<Webhook[]> {
    return ids.flatMap((id) => {
      const found = this.ref.tables.webhooks.get(id);
      return found ? [Webhook.rehydrate(found)] : [];
    });
  }
}

export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly ref: TablesRef) {}

  async insert(delivery: NewWebhookDelivery): Promise<WebhookDelivery> {
    const { claimedUntil, ...rest } = delivery;
    const stored: StoredDelivery = {
      ...rest,
      id: nextId(this.ref.tables, 'webhook-delivery'),
      status: 'PENDING',
      responseCode: null,
      durationMs: null,
      failureReason: null,
      attemptedAt: null,
      claimedUntil,
      nextAttemptAt: null,
    };
    this.ref.tables.webhookDeliveries.set(stored.id, stored);
    return historyOf(stored);
  }

  async complete(completions: readonly Completion[]): Promise<WebhookDelivery[]> {
    return completions.flatMap(({ id, result, sentAt }) => {
      const found = this.ref.tables.webhookDeliveries.get(id);
      if (found?.status !== 'PENDING') return [];
      const done: StoredDelivery = { ...found, ...result, attemptedAt: sentAt ?? null, claimedUntil: null, nextAttemptAt: null };
      this.ref.tables.webhookDeliveries.set(id, done);
      return [historyOf(done)];
    });
  }

  async lastAttempt(webhookId: number, eventId: string): Promise<number> {
    const attempts = [...this.ref.tables.webhookDeliveries.values()].filter((d) => d.webhookId === webhookId && d.eventId === eventId);
    return Math.max(0, ...attempts.map((d) => d.attempt));
  }

  async schedule(deliveries: readonly ScheduledDelivery[]): Promise<void> {
    const rows = this.ref.tables.webhookDeliveries;
    const stored = new Set([...rows.values()].map((d) => `${d.webhookId} ${d.eventId} ${d.attempt}`));
    for (const delivery of deliveries) {
      const key = `${delivery.webhookId} ${delivery.eventId} ${delivery.attempt}`;
      // The first of two alike in one call too, as PostgreSQL's ON CONFLICT DO NOTHING keeps it.
      if (stored.has(key) || !this.ref.tables.webhooks.has(delivery.webhookId)) continue;
      stored.add(key);
      const id = nextId(this.ref.tables, 'webhook-delivery');
      rows.set(id, { ...delivery, id, status: 'PENDING', responseCode: null, durationMs: null, failureReason: null, attemptedAt: null, claimedUntil: null });
    }
  }

  async claimDue(claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
    const dueAt = (d: StoredDelivery) => d.claimedUntil ?? d.nextAttemptAt;
    const byDue = (a: StoredDelivery, b: StoredDelivery) => dueAt(a)!.getTime() - dueAt(b)!.getTime() || a.id - b.id;
    const shares = new Map((claim.shares ?? []).map((share) => [share.webhookId, share.perWebhook]));
    const shareOf = (webhookId: number) => shares.get(webhookId) ?? claim.perWebhook;
    const due = [...this.ref.tables.webhookDeliveries.values()]
      .filter((d) => d.status === 'PENDING' && dueAt(d) !== null && dueAt(d)! <= claim.now)
      .filter((d) => this.ref.tables.webhooks.has(d.webhookId) && !claim.skipWebhooks.includes(d.webhookId) && shareOf(d.webhookId) > 0)
      .sort(byDue);
    // In due order, so the webhooks come in the order of their oldest due attempt.
    const byWebhook = new Map<number, StoredDelivery[]>();
    for (const d of due) {
      const attempts = byWebhook.get(d.webhookId);
      if (attempts) attempts.push(d);
      else byWebhook.set(d.webhookId, [d]);
    }
    const read = claim.limit * CLAIM_SCAN_FACTOR;
    const webhooks = [...byWebhook.keys()].slice(0, read);
    const part = Math.max(1, Math.ceil(read / webhooks.length));
    const taken = webhooks
      .flatMap((webhookId) => byWebhook.get(webhookId)!.slice(0, Math.min(shareOf(webhookId), read, part)))
      .sort(byDue)
      .slice(0, claim.limit);
    const claimed: ClaimedDelivery[] = [];
    for (const d of taken) {
      this.ref.tables.webhookDeliveries.set(d.id, { ...d, claimedUntil: claim.claimedUntil });
      const { id, webhookId, customerId, eventId, eventType, attempt, scheduleStep, payload, createdAt } = d;
      claimed.push({ id, webhookId, customerId, eventId, eventType, attempt, scheduleStep, payload, createdAt, lapsed: d.claimedUntil !== null });
    }
    return claimed;
  }

  async hold(ids: readonly number[]): Promise<void> {
    this.update(ids, (d) => ({ ...d, nextAttemptAt: null, claimedUntil: null }));
  }

  async unclaim(leases: readonly DeliveryLease[], now: Date): Promise<void> {
    const rows = this.ref.tables.webhookDeliveries;
    const ours = leases.filter(
      ({ id, claimedUntil }) => rows.get(id)?.status === 'PENDING' && rows.get(id)?.claimedUntil?.getTime() === claimedUntil.getTime(),
    );
    this.update(
      ours.map(({ id }) => id),
      (d) => ({ ...d, claimedUntil: null, nextAttemptAt: d.nextAttemptAt ?? now }),
    );
  }

  async release(webhookId: number, now: Date, heldSince: Date): Promise<{ released: number; expired: number }> {
    const held = [...this.ref.tables.webhookDeliveries.values()].filter((d) => d.webhookId === webhookId && isHeld(d));
    const old = held.filter((d) => d.createdAt < heldSince).map((d) => d.id);
    const recent = held.filter((d) => d.createdAt >= heldSince).map((d) => d.id);
    this.update(old, (d) => ({ ...d, status: 'FAILED', failureReason: EXPIRED_REASON }));
    const later = [...this.ref.tables.webhookDeliveries.values()]
      .filter((d) => d.webhookId === webhookId && d.status === 'PENDING' && d.claimedUntil === null && d.nextAttemptAt !== null && d.nextAttemptAt > now)
      .map((d) => d.id);
    this.update([...recent, ...later], (d) => ({ ...d, nextAttemptAt: now }));
    return { released: recent.length + later.length, expired: old.length };
  }

  async expireHeld(heldBefore: Date, limit: number): Promise<number> {
    const old = [...this.ref.tables.webhookDeliveries.values()]
      .filter((d) => isHeld(d) && d.createdAt < heldBefore)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .slice(0, limit)
      .map((d) => d.id);
    this.update(old, (d) => ({ ...d, status: 'FAILED', failureReason: EXPIRED_REASON }));
    return old.length;
  }

  async purgeTestAttempts(before: Date, limit: number): Promise<number> {
    const rows = this.ref.tables.webhookDeliveries;
    const old = [...rows.values()]
      .filter((d) => d.eventType === 'webhook.test' && d.status !== 'PENDING' && d.createdAt < before)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .slice(0, limit);
    for (const d of old) rows.delete(d.id);
    return old.length;
  }

  async purgeOfDeletedWebhooks(limit: number): Promise<number> {
    const { webhookDeliveries: rows, deletedWebhooks } = this.ref.tables;
    const doomed = [...rows.values()].filter((d) => deletedWebhooks.has(d.webhookId)).slice(0, limit);
    for (const d of doomed) rows.delete(d.id);
    if (doomed.length < limit) {
      const left = new Set([...rows.values()].map((d) => d.webhookId));
      for (const id of deletedWebhooks) if (!left.has(id)) deletedWebhooks.delete(id);
    }
    return doomed.length;
  }

  private update(ids: readonly number[], change: (d: StoredDelivery) => StoredDelivery): void {
    const rows = this.ref.tables.webhookDeliveries;
    for (const id of ids) rows.set(id, change(rows.get(id)!));
  }
}

export class InMemoryWebhookQueries implements WebhookQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Webhook | undefined> {
    const found = this.source.visibleTables().webhooks.get(id);
    return found && Webhook.rehydrate(found);
  }

  async list(filter: WebhookListFilter, page: PageRequest): Promise<Page<Webhook>> {
    const rows = [...this.source.visibleTables().webhooks.values()].filter((w) => w.customerId === filter.customerId && matchesCommon(w, filter));
    return pageOf(rows, page, (row) => Webhook.rehydrate(row));
  }

  async deliveries(filter: WebhookDeliveryListFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const tables = this.source.visibleTables();
    const present = tables.webhooks.get(filter.webhookId)?.customerId === filter.customerId;
    const rows = [...(present ? tables.webhookDeliveries.values() : [])]
      .filter(
        (d) =>
          d.webhookId === filter.webhookId &&
          d.customerId === filter.customerId &&
          (filter.fromDate === undefined || d.createdAt >= filter.fromDate) &&
          (filter.toDate === undefined || d.createdAt <= filter.toDate) &&
          (filter.status === undefined || d.status === filter.status) &&
          (filter.eventType === undefined || d.eventType === filter.eventType) &&
          (filter.eventId === undefined || d.eventId === filter.eventId),
      )
      .map((d) => ({ ...d, creationDate: d.createdAt }));
    return pageOf(rows, page, ({ creationDate: _creationDate, ...delivery }) => historyOf(delivery));
  }
}
