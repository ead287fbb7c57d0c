import { migrationSource } from '../src/migrations';
import { openTestDatabase, type TestDatabase } from '../testing';
import { insertAccountRow } from './support/account-row';

const MIGRATION = '008-aliases-any-case';

describe(`migration ${MIGRATION}`, () => {
  let db: TestDatabase;
  let customerId: number;
  beforeAll(async () => {
    db = await openTestDatabase();
    [{ id: customerId }] = await db.knex('customers').insert({ name: 'Aliases', creation_date: new Date() }).returning('id');
  });
  afterAll(async () => {
    await db?.close();
  });

  /** An ACTIVE account with this alias. */
  const accountWithAlias = (n: number, alias: string) => insertAccountRow(db.knex, customerId, n, { status: 'ACTIVE', alias });

  it('leaves the oldest of the accounts sharing an alias in another letter case with it and suffixes the others with their ids', async () => {
    await db.knex.migrate.down({ migrationSource, name: MIGRATION });
    const ids = [
      await accountWithAlias(1, 'cta.0000005'),
      await accountWithAlias(2, 'CTA.0000005'),
      await accountWithAlias(3, 'Cta.0000005.long.one'),
      await accountWithAlias(4, 'cta.0000005.LONG.ONE'),
      await accountWithAlias(5, 'kiosco.sol'),
    ];
    await db.knex.migrate.up({ migrationSource, name: MIGRATION });
    const rows = await db.knex('receivable_accounts').whereIn('id', ids).orderBy('id').select('alias', 'version');
    const suffixed = (alias: string, id: number) => `${alias.slice(0, 19 - String(id).length)}-${id}`;
    expect(rows).toEqual([
      { alias: 'cta.0000005', version: 1 },
      { alias: suffixed('CTA.0000005', ids[1]), version: 2 },
      { alias: 'Cta.0000005.long.one', version: 1 },
      { alias: suffixed('cta.0000005.LONG.ONE', ids[3]), version: 2 },
      { alias: 'kiosco.sol', version: 1 },
    ]);
  });

  it('refuses an alias another account holds in another letter case', async () => {
    await accountWithAlias(6, 'shared.alias');
    await expect(accountWithAlias(7, 'SHARED.Alias')).rejects.toThrow(/receivable_accounts_alias_any_case/);
  });
});
