import { openTestDatabase, type TestDatabase } from '../testing';

/**
 * Every connection of the pool is set up the same way before its first statement: a row lock waited for fails
 * after lock_timeout instead of holding a request, and no plan is JIT-compiled (a list page's plan is estimated
 * over every row it could read; compiling it cost 13 ms for 0.2 ms of work).
 */
describe(`connection settings (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db.close());

  it('turns JIT off and sets lock_timeout on every connection of the pool', async () => {
    const settings = await Promise.all(
      Array.from({ length: 3 }, () =>
        db.knex.transaction(
          async (trx) =>
            (await trx.raw<{ rows: Array<{ jit: string; lock: string }> }>(`SELECT current_setting('jit') AS jit, current_setting('lock_timeout') AS lock`))
              .rows[0],
        ),
      ),
    );
    // The default lock_timeout, 10 s, in milliseconds as the option gives it.
    expect(settings).toEqual(Array.from({ length: 3 }, () => ({ jit: 'off', lock: '10s' })));
  });

  it('sets the lock_timeout it is given, in milliseconds', async () => {
    const other = await openTestDatabase({ lockTimeoutMs: 250 });
    try {
      expect((await other.knex.raw<{ rows: Array<{ lock: string }> }>(`SELECT current_setting('lock_timeout') AS lock`)).rows[0].lock).toBe('250ms');
    } finally {
      await other.close();
    }
  });
});
