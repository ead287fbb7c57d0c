import { itOnRealServer, openTestDatabase, type TestDatabase } from '../testing';
import { prepared } from '../src/repositories/prepared';

describe('named prepared statements', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 1 });
  });
  afterAll(async () => db.close());

  itOnRealServer('PGlite runs without named prepared statements')(
    'survive a migration that changes the columns of a table they read while the service runs',
    async () => {
      await db.knex.raw('CREATE TABLE drifting (id INT PRIMARY KEY)');
      await db.knex.raw('INSERT INTO drifting VALUES (1)');
      const read = () => prepared(db.knex, 'drifting.get', 'SELECT * FROM drifting WHERE id = ?', [1]);
      const readInTransaction = () => db.knex.transaction((trx) => prepared(trx, 'drifting.get-in-tx', 'SELECT * FROM drifting WHERE id = ?', [1]));
      expect((await read()).rows).toEqual([{ id: 1 }]);
      expect((await readInTransaction()).rows).toEqual([{ id: 1 }]);

      await db.knex.raw('ALTER TABLE drifting ADD COLUMN note TEXT');
      expect((await read()).rows).toEqual([{ id: 1, note: null }]);
      expect((await readInTransaction()).rows).toEqual([{ id: 1, note: null }]);
      await db.knex.raw('ALTER TABLE drifting ADD COLUMN more TEXT');
      await expect(readInTransaction()).rejects.toThrow(/cached plan must not change result type/);
      expect((await readInTransaction()).rows).toEqual([{ id: 1, note: null, more: null }]);
    },
  );
});
