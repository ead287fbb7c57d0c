import { inMemoryApplication } from '../testing';

describe('purging expired idempotency records', () => {
  it('deletes every record past its expiry, batch after batch, and keeps the live ones', async () => {
    const { app, uow, clock, store } = inMemoryApplication();
    const day = 24 * 60 * 60 * 1000;
    const claim = (key: string, expiresInMs: number) =>
      uow.run(async (tx) => {
        await tx.idempotency.claim({ credentialId: 1, key, fingerprint: 'fp', now: clock.now(), expiresAt: new Date(clock.now().getTime() + expiresInMs) });
        await tx.idempotency.complete(1, key, { status: 201, body: JSON.stringify({ key }) });
      });
    for (let i = 0; i < 5; i++) await claim(`old-${i}`, day);
    await claim('fresh', 3 * day);
    clock.advance(day + 1);
    expect(await app.idempotency.purge.execute({ batchSize: 2 })).toBe(5);
    expect(store.committed.idempotency.size).toBe(1);
  });
});
