import { DEFAULT_CUSTOMER_SETTINGS, Webhook, type DeliveryClaim, type ScheduledDelivery } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { readByClaim } from './support/claim-reads';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/**
 * A claim finds webhooks by a per-webhook lower bound of when their next attempt is due (migration 024): it reads
 * the webhooks with attempts due now, not every webhook with attempts due later; and raising a bound never hides
 * an attempt that a transaction the claim could not see made due.
 */
describe(`webhooks' next-due bounds (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
    uow = new KnexUnitOfWork(db.knex);
    ({ id: customerId } = (await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'next due', creationDate: T0 }))).customer);
  });
  afterAll(async () => db.close());

  const register = (count: number) =>
    uow.run(async (tx) => {
      const ids: number[] = [];
      for (let n = 0; n < count; n++) {
        const registration = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };
        ids.push((await tx.webhooks.insert(Webhook.register(customerId, registration, { sealed: 's', tail: '0000' }, T0))).id);
      }
      return ids;
    });
  let events = 0;
  const attempt = (webhookId: number, due: Date): ScheduledDelivery => ({
    webhookId,
    customerId,
    eventId: `evt_next_due_${++events}`,
    eventType: 'receivable.paid',
    attempt: 1,
    scheduleStep: 1,
    payload: '{}',
    createdAt: T0,
    nextAttemptAt: due,
  });
  const claimAt = (now: Date, limit = 10): DeliveryClaim => ({ now, claimedUntil: at(86_400_000), limit, perWebhook: 5, skipWebhooks: [] });

  it('reads the webhooks with attempts due now, not the thousands whose next retry is hours away', async () => {
    const now = at(0);
    const later = await register(2_000);
    const [due] = await register(1);
    const dueNow = [attempt(due, at(-2_000)), attempt(due, at(-1_000))];
    await uow.run((tx) => tx.webhookDeliveries.schedule([...later.map((id) => attempt(id, at(3_600_000))), ...dueNow]));

    const { claimed, read } = await readByClaim(uow, claimAt(now));

    expect(claimed.map((d) => d.eventId)).toEqual(dueNow.map((d) => d.eventId));
    // A few entries per attempt taken and per webhook read; walking the webhooks with later retries was 2,000 or more.
    expect(read).toBeLessThan(60);
    // Hours later, the retries are due, every one of them found.
    let found = 0;
    for (let taken = -1; taken !== 0; found += taken) taken = (await uow.run((tx) => tx.webhookDeliveries.claimDue(claimAt(at(3_600_000), 500)))).length;
    expect(found).toBe(2_000);
  });

  itOnRealServer('a bound waits on a transaction only across two connections; PGlite has one')(
    'raises no bound that a transaction making an attempt due holds, and that attempt is claimed once it commits',
    async () => {
      const [webhookId] = await register(1);
      const first = attempt(webhookId, at(-3_000));
      const made = attempt(webhookId, at(-2_000));
      await uow.run((tx) => tx.webhookDeliveries.schedule([first]));
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => (commit = resolve));
      let scheduled!: () => void;
      const holding = new Promise<void>((resolve) => (scheduled = resolve));
      const making = uow.run(async (tx) => {
        await tx.webhookDeliveries.schedule([made]);
        scheduled();
        await committing;
      });
      await holding;

      // The claim cannot see `made`: raised to its own lease's end, the bound would hide `made` for a day.
      const during = await uow.run((tx) => tx.webhookDeliveries.claimDue(claimAt(at(0))));
      commit();
      await making;
      const after = await uow.run((tx) => tx.webhookDeliveries.claimDue(claimAt(at(0))));

      expect(during.map((d) => d.eventId)).toEqual([first.eventId]);
      expect(after.map((d) => d.eventId)).toEqual([made.eventId]);
    },
  );

  itOnRealServer('transactions racing need several connections; PGlite has one')(
    'keeps every bound at or before its webhook’s next due attempt while dispatches, claims and results race',
    async () => {
      const webhooks = await register(4);
      const bounds = () =>
        db.knex.raw<{ rows: { webhook_id: string; due_at: Date | null; next: Date | null }[] }>(
          `SELECT w.id AS webhook_id, b.due_at, (SELECT min(COALESCE(d.claimed_until, d.next_attempt_at)) FROM webhook_deliveries d
             WHERE d.webhook_id = w.id AND d.status = 'PENDING' AND COALESCE(d.claimed_until, d.next_attempt_at) IS NOT NULL) AS next
           FROM webhooks w LEFT JOIN webhook_next_due b ON b.webhook_id = w.id WHERE w.id = ANY(?)`,
          [webhooks],
        );
      const until = Date.now() + 2_000;
      let clock = 0;
      const tick = () => at(++clock);
      // Attempts made due at the moment, to random webhooks, each in its own short transaction.
      const dispatching = async () => {
        while (Date.now() < until) {
          const now = tick();
          await uow.run((tx) => tx.webhookDeliveries.schedule(webhooks.filter(() => Math.random() < 0.5).map((id) => attempt(id, now))));
        }
      };
      // Claims that take all that is due, whose leases lapse a while later, and results that end some of it: a bound
      // raised past an attempt made due meanwhile stays wrong until then.
      const claiming = async () => {
        while (Date.now() < until) {
          const now = at(clock);
          const claimed = await uow.run((tx) =>
            tx.webhookDeliveries.claimDue({ ...claimAt(now, 100), perWebhook: 100, claimedUntil: new Date(now.getTime() + 1_000) }),
          );
          const ended = claimed.filter(() => Math.random() < 0.5);
          const result = { status: 'SUCCESS' as const, responseCode: 200, durationMs: 1, failureReason: null };
          if (ended.length > 0) await uow.run((tx) => tx.webhookDeliveries.complete(ended.map((d) => ({ id: d.id, result }))));
        }
      };
      // Read in one statement, one snapshot: every committed state keeps the bound, not only the last.
      const broken: unknown[] = [];
      const checking = async () => {
        while (Date.now() < until) {
          broken.push(...(await bounds()).rows.filter((row) => row.next !== null && (row.due_at === null || row.due_at > row.next)));
        }
      };
      await Promise.all([dispatching(), dispatching(), claiming(), claiming(), checking()]);
      expect(broken).toEqual([]);
    },
  );
});
