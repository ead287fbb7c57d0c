import { createApplication, LOST_ATTEMPT, RETRY_DELAYS_MS, type DeliveryResult } from '../src';
import { inMemoryPorts } from '../testing';

const OK: DeliveryResult = { status: 'SUCCESS', responseCode: 200, durationMs: 5, failureReason: null };
const FAILED: DeliveryResult = { status: 'FAILED', responseCode: 503, durationMs: 5, failureReason: 'answered 503' };

/** A webhook with `events` attempts due, claimed; results recorded with the given failure threshold. */
async function claimedAttempts(events: number, failureThreshold: number, attemptOf = (n: number) => ({ eventId: `evt_${n}`, attempt: 1 })) {
  const ports = inMemoryPorts();
  const app = createApplication({ ...ports, webhookDelivery: { ...ports.webhookDelivery, failureThreshold } });
  const { webhook } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
  const now = ports.clock.now();
  await ports.uow.run((tx) =>
    tx.webhookDeliveries.schedule(
      Array.from({ length: events }, (_, n) => ({
        webhookId: webhook.id,
        customerId: 1,
        scheduleStep: attemptOf(n).attempt,
        ...attemptOf(n),
        eventType: 'receivable.paid' as const,
        payload: `{"id":"${attemptOf(n).eventId}"}`,
        createdAt: now,
        nextAttemptAt: now,
      })),
    ),
  );
  const claimed = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
  expect(claimed).toHaveLength(events);
  /** Sends these, the endpoint answering `answers` in turn. */
  const send = (items: typeof claimed, answers: DeliveryResult[]) => {
    ports.sender.send = () => Promise.resolve(answers.shift()!);
    return Promise.all(items.map((item) => app.webhooks.deliver.send(item)));
  };
  const read = async () => (await app.webhooks.get.execute({ customerId: 1, webhookId: webhook.id })).toSnapshot();
  const history = async () =>
    (await app.webhooks.deliveries.execute({ customerId: 1, webhookId: webhook.id, filter: {}, page: { page: 1, count: 20 } })).items.map((d) => [
      d.eventId,
      d.attempt,
      d.status,
    ]);
  return { claimed, send, read, history, ports, app };
}

describe('webhook delivery results', () => {
  it('counts a webhook’s run of failures in the order its endpoint answered, also within one recording batch', async () => {
    const { claimed, send, read } = await claimedAttempts(4, 2);
    // The first answer is recorded at once; the other three arrive while it is, and are recorded together.
    await send(claimed, [OK, FAILED, OK, FAILED]);
    // Never two failures in a row: the webhook stays ACTIVE, its last delivery the last answer.
    const after = await read();
    expect([after.status, after.lastDeliveryStatus]).toEqual(['ACTIVE', 'FAILED']);
  });

  it('fails a webhook whose run reached the threshold inside a batch, though a later success in it ends the run', async () => {
    const { claimed, send, read } = await claimedAttempts(4, 2);
    // Recorded as [OK], then [FAILED, FAILED, OK] together: one by one, the second failure made it FAILED.
    await send(claimed, [OK, FAILED, FAILED, OK]);
    const after = await read();
    expect([after.status, after.lastDeliveryStatus]).toEqual(['FAILED', 'SUCCESS']);
  });

  it('records when each attempt was sent beside when it was queued, which keeps its place in the history', async () => {
    const { claimed, send, app, ports } = await claimedAttempts(1, 5);
    const queuedAt = ports.clock.now();
    ports.clock.advance(90_000);
    const sentAt = ports.clock.now();
    await send(claimed, [OK]);
    const [made] = (await app.webhooks.deliveries.execute({ customerId: 1, webhookId: claimed[0].delivery.webhookId, filter: {}, page: { page: 1, count: 5 } }))
      .items;
    expect([made.createdAt, made.attemptedAt]).toEqual([queuedAt, sentAt]);
  });

  it('puts a failed attempt’s retry in the history at once, dated when it is due, and says so', async () => {
    const { claimed, send, app, ports } = await claimedAttempts(1, 5);
    const failedAt = ports.clock.now();
    await send(claimed, [FAILED]);
    const history = await app.webhooks.deliveries.execute({ customerId: 1, webhookId: claimed[0].delivery.webhookId, filter: {}, page: { page: 1, count: 5 } });
    expect(history.items.map((d) => [d.attempt, d.status, d.createdAt, d.attemptedAt, d.nextAttemptAt])).toEqual([
      [2, 'PENDING', new Date(failedAt.getTime() + RETRY_DELAYS_MS[1]), null, new Date(failedAt.getTime() + RETRY_DELAYS_MS[1])],
      [1, 'FAILED', failedAt, failedAt, null],
    ]);
  });

  it('records an attempt answered twice in one batch once, with its first answer', async () => {
    const { claimed, send, history } = await claimedAttempts(2, 5);
    const [first, second] = claimed;
    // The first is recorded at once; both answers of the second (sent again after its lease lapsed) come meanwhile.
    await send([first, second, second], [OK, FAILED, OK]);
    expect((await history()).sort()).toEqual([
      ['evt_0', 1, 'SUCCESS'],
      ['evt_1', 1, 'FAILED'],
      ['evt_1', 2, 'PENDING'],
    ]);
  });

  it('numbers the retries of two failed attempts of one event recorded together apart, neither lost', async () => {
    // evt_1's first attempt and a redelivery of it, both out when they fail.
    const { claimed, send, history } = await claimedAttempts(3, 5, (n) => (n === 0 ? { eventId: 'evt_0', attempt: 1 } : { eventId: 'evt_1', attempt: n }));
    // The first is recorded at once; evt_1's two failures come meanwhile and are recorded together.
    await send(claimed, [FAILED, FAILED, FAILED]);
    expect((await history()).sort()).toEqual([
      ['evt_0', 1, 'FAILED'],
      ['evt_0', 2, 'PENDING'],
      ['evt_1', 1, 'FAILED'],
      ['evt_1', 2, 'FAILED'],
      ['evt_1', 3, 'PENDING'],
      ['evt_1', 4, 'PENDING'],
    ]);
  });
});

describe('a webhook none of whose secrets can be read (WEBHOOK_SECRET_KEY changed)', () => {
  it('fails its attempts unsent, saying so, while the other webhooks claimed with it are sent; a rotation mends it', async () => {
    const ports = inMemoryPorts();
    const app = createApplication(ports);
    const register = (url: string) => app.webhooks.register.execute({ customerId: 1, url, events: ['receivable.paid'] });
    const [{ webhook: lost }, { webhook: fine }] = [await register('https://lost.example/hooks'), await register('https://fine.example/hooks')];
    const [unreadable] = lost.signingSecrets(ports.clock.now());
    const { vault } = ports.webhookDelivery;
    const open = vault.open.bind(vault);
    vault.open = (sealed) => {
      if (sealed === unreadable) throw new Error('Unsupported state or unable to authenticate data');
      return open(sealed);
    };
    const now = ports.clock.now();
    const attempt = (webhookId: number, eventId: string) => ({
      webhookId,
      customerId: 1,
      eventId,
      attempt: 1,
      scheduleStep: 1,
      eventType: 'receivable.paid' as const,
      payload: '{}',
      createdAt: now,
      nextAttemptAt: now,
    });
    const deliver = async () => {
      const claimed = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
      await Promise.all(claimed.map((item) => app.webhooks.deliver.send(item)));
    };
    const history = async (webhookId: number) =>
      (await app.webhooks.deliveries.execute({ customerId: 1, webhookId, filter: {}, page: { page: 1, count: 20 } })).items;

    await ports.uow.run((tx) => tx.webhookDeliveries.schedule([attempt(lost.id, 'evt_1'), attempt(fine.id, 'evt_1')]));
    await deliver();

    expect(ports.sender.sent.map((request) => request.url)).toEqual(['https://fine.example/hooks']);
    expect((await history(fine.id)).map((d) => d.status)).toEqual(['SUCCESS']);
    const failed = (await history(lost.id)).find((d) => d.attempt === 1)!;
    expect([failed.status, failed.failureReason]).toEqual(['FAILED', expect.stringMatching(/no signing secret .* can be read .*rotate its secret/)]);

    const { secret } = await app.webhooks.rotateSecret.execute({ customerId: 1, webhookId: lost.id });
    await ports.uow.run((tx) => tx.webhookDeliveries.schedule([attempt(lost.id, 'evt_2')]));
    await deliver();
    expect(ports.sender.sent.at(-1)).toMatchObject({ url: 'https://lost.example/hooks', secrets: [secret] });
  });
});

describe('a webhook deleted while its attempts are out', () => {
  it('records nothing and retries nothing for it, and the event purge takes its attempts', async () => {
    const { claimed, send, ports, app } = await claimedAttempts(2, 5);
    const webhookId = claimed[0].delivery.webhookId;
    await app.webhooks.delete.execute({ customerId: 1, webhookId });
    await send(claimed, [FAILED, FAILED]);
    const attempts = () => [...ports.store.committed.webhookDeliveries.values()].filter((d) => d.webhookId === webhookId);
    expect(attempts().map((d) => [d.eventId, d.attempt, d.status])).toEqual([
      ['evt_0', 1, 'PENDING'],
      ['evt_1', 1, 'PENDING'],
    ]);
    ports.clock.advance(30_001);
    expect(await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 })).toEqual([]);
    expect(await app.events.purge.execute({ retentionDays: 30 })).toMatchObject({ deletedWebhookAttempts: 2 });
    expect(attempts()).toEqual([]);
  });
});

describe('an attempt whose lease lapsed', () => {
  it('is recorded as lost and sent again as an attempt of its own, without counting as the endpoint’s failure', async () => {
    const { claimed, send, read, history, ports, app } = await claimedAttempts(2, 1);
    // The first is answered; the worker holding the second dies before it sends or records anything.
    await send([claimed[0]], [OK]);
    ports.clock.advance(30_001);
    const [again] = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
    expect([again.delivery.eventId, again.delivery.attempt, again.delivery.lapsed]).toEqual(['evt_1', 2, false]);
    expect(await history()).toEqual(
      expect.arrayContaining([
        ['evt_0', 1, 'SUCCESS'],
        ['evt_1', 1, 'FAILED'],
        ['evt_1', 2, 'PENDING'],
      ]),
    );
    // A threshold of one: had the lost attempt counted as a failure, the webhook would be FAILED by now.
    expect((await read()).status).toBe('ACTIVE');
    await send([again], [OK]);
    expect((await history()).sort()).toEqual([
      ['evt_0', 1, 'SUCCESS'],
      ['evt_1', 1, 'FAILED'],
      ['evt_1', 2, 'SUCCESS'],
    ]);
    // The dead worker's answer, had it come after all, finds its attempt ended and is not recorded over it.
    await send([claimed[1]], [FAILED]);
    const lost = (
      await app.webhooks.deliveries.execute({ customerId: 1, webhookId: again.delivery.webhookId, filter: { eventId: 'evt_1' }, page: { page: 1, count: 5 } })
    ).items;
    expect(lost.map((d) => [d.attempt, d.status, d.responseCode, d.failureReason])).toEqual([
      [2, 'SUCCESS', 200, null],
      [1, 'FAILED', null, LOST_ATTEMPT.failureReason],
    ]);
    expect((await read()).status).toBe('ACTIVE');
  });

  it('is the caller’s own, leased anew and not taken for lost, when the caller says it still holds it', async () => {
    const { claimed, send, history, ports, app } = await claimedAttempts(1, 5);
    ports.clock.advance(30_001);
    const [again] = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10, held: new Set([claimed[0].delivery.id]) });
    expect([again.delivery.id, again.delivery.attempt, again.delivery.lapsed]).toEqual([claimed[0].delivery.id, 1, true]);
    // Its answer, recorded late, is the attempt's: no lost attempt, no second send.
    await send([claimed[0]], [OK]);
    expect(await history()).toEqual([['evt_0', 1, 'SUCCESS']]);
  });

  it('is ended as lost and not sent again once the CONTRACT schedule has no attempt after it', async () => {
    const { ports, app, history } = await claimedAttempts(1, 5, () => ({ eventId: 'evt_last', attempt: RETRY_DELAYS_MS.length }));
    ports.clock.advance(30_001);
    expect(await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 })).toEqual([]);
    expect(await history()).toEqual([['evt_last', RETRY_DELAYS_MS.length, 'FAILED']]);
  });

  it('gives back, unsent and not lost, the attempts claimed beside it when its resend cannot be recorded', async () => {
    const { ports } = await claimedAttempts(1, 5);
    const webhookId = [...ports.store.committed.webhooks.keys()][0];
    ports.clock.advance(30_001);
    const now = ports.clock.now();
    const fresh = {
      webhookId,
      customerId: 1,
      eventId: 'evt_fresh',
      eventType: 'receivable.paid' as const,
      attempt: 1,
      scheduleStep: 1,
      payload: '{}',
      createdAt: now,
    };
    await ports.uow.run((tx) => tx.webhookDeliveries.schedule([{ ...fresh, nextAttemptAt: now }]));
    // The claim commits; the connection is lost before the lapsed attempt's resend is recorded.
    let runs = 0;
    const uow = Object.assign(Object.create(ports.uow) as typeof ports.uow, {
      run: <T>(work: Parameters<typeof ports.uow.run<T>>[0]) => (++runs === 2 ? Promise.reject(new Error('connection lost')) : ports.uow.run(work)),
    });
    await expect(createApplication({ ...ports, uow }).webhooks.deliver.claim({ limit: 10, perWebhook: 10 })).rejects.toThrow('connection lost');
    // The fresh one is due again at once, as it was: no sender had it. The lapsed one waits for this claim's lease.
    const next = await createApplication(ports).webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
    expect(next.map(({ delivery }) => [delivery.eventId, delivery.attempt, delivery.lapsed])).toEqual([['evt_fresh', 1, false]]);
  });
});
