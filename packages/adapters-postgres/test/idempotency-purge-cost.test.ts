import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

const NOW = new Date('2026-03-10T12:00:00.000Z');

/** The hourly purge of expired idempotency keys reads the batch it deletes, not the keys still live. */
describe(`the idempotency purge's cost (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  it('deletes a batch of the oldest expired keys reading about that many, however many keys are live', async () => {
    // 40,000 live keys with narrow stored answers, 6,000 expired; the job's batch is 5,000.
    await db.knex.raw(
      `INSERT INTO idempotency_keys (credential_id, key, fingerprint, response_status, response_body, created_at, expires_at)
       SELECT n % 7 + 1, 'key-' || n, 'f', 201, '{}', ?::timestamptz - interval '1 day',
              ?::timestamptz + CASE WHEN n <= 6000 THEN -n ELSE n END * interval '1 second'
       FROM generate_series(1, 46000) n`,
      [NOW, NOW],
    );
    await db.knex.raw('ANALYZE idempotency_keys');

    const { result, read } = await readsOf(uow, ['idempotency_keys'], (bound) => bound.run((tx) => tx.idempotency.purgeExpired(NOW, 5_000)));

    expect(result).toBe(5_000);
    // The batch's index entries and its rows, locked then deleted: not the 46,000.
    expect(read).toBeLessThan(15_000);
    const left = await db.knex('idempotency_keys').where('expires_at', '<=', NOW).count<{ n: string }[]>({ n: '*' });
    expect(Number(left[0].n)).toBe(1_000);
  });
});
