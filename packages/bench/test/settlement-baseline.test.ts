import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { settlementBaseline } from '../src/settlement-baseline';

describe('baseline (d)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  itOnRealServer('baseline (d) runs its batches on three connections at once')(
    'settles every receivable once, in batches across accounts, with one debit and one credit per account, and leaves no table behind',
    async () => {
      const url = new URL(db.url);
      url.searchParams.set('options', `-c search_path=${db.schema}`);
      // 2,500 accounts of 10: 25,000 receivables, three batches of 10,000 and a shorter last one, run side by side.
      const result = await settlementBaseline(url.toString(), 2_500, 10);
      expect(result).toMatchObject({ receivables: 25_000, movements: 5_000 });
      expect(result.seconds).toBeGreaterThan(0);
      const { rows } = await db.knex.raw<{ rows: unknown[] }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_name LIKE 'baseline%'`,
        [db.schema],
      );
      expect(rows).toEqual([]);
    },
  );
});
