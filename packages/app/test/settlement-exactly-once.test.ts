import { spawn } from 'node:child_process';
import path from 'node:path';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { backendsGone, childUrl } from './support/killed-child';
import { instanceOn, moneyState, seedMoney } from './support/settlement-world';

/** The settlement cycle moves every collected peso exactly once, whatever runs it and whenever it dies. */
describe('settlement exactly once', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  itOnRealServer('two instances racing need two connections; PGlite has one')(
    'settles each account once when two instances run the cycle at the same moment',
    async () => {
      const [one, two] = [instanceOn(db), instanceOn(db)];
      try {
        const { customerId, collectedMinor } = await seedMoney(db, one.app, 40);
        const runs = await Promise.all([one.app.settlements.run.execute({ chunkSize: 3 }), two.app.settlements.run.execute({ chunkSize: 3 })]);
        expect(runs[0].settlements + runs[1].settlements).toBe(40);
        expect(runs[0].settledAmountMinor + runs[1].settledAmountMinor).toBe(collectedMinor);
        const state = await moneyState(db, customerId);
        expect(state).toEqual({
          receivableBalances: 0n,
          currentBalances: collectedMinor,
          settlements: 40,
          maxSettlementsPerAccount: 1,
          settledReceivables: 40,
          settlementsWithoutPair: 0,
        });
        expect(await one.app.ledger.verify.execute()).toEqual([]);
        const third = await two.app.settlements.run.execute();
        expect(third.settlements).toBe(0);
      } finally {
        await Promise.all([one.knex.destroy(), two.knex.destroy()]);
      }
    },
  );

  it.each([[40], [43], [47]])('keeps whole chunks only when the process dies before statement %i, and the next run completes the work', async (killAt) => {
    const instance = instanceOn(db);
    try {
      const { customerId, collectedMinor } = await seedMoney(db, instance.app, 20);
      const script = path.join(__dirname, 'support', 'settle-child.js');
      const child = spawn(process.execPath, [script, childUrl(db.url), db.schema, String(killAt)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let said = '';
      child.stdout.on('data', (chunk) => (said += chunk));
      const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      expect(exit).toBe('SIGKILL');
      expect(said).toMatch(/^killed before: /);
      await backendsGone(db.knex);

      const cut = await moneyState(db, customerId);
      expect(cut.settlements).toBeGreaterThan(0);
      expect(cut.settlements).toBeLessThan(20);
      expect(cut.settlementsWithoutPair).toBe(0);
      expect(cut.receivableBalances + cut.currentBalances).toBe(collectedMinor);
      expect(await instance.app.ledger.verify.execute()).toEqual([]);

      const rest = await instance.app.settlements.run.execute();
      expect(rest.settlements).toBe(20 - cut.settlements);
      expect(await moneyState(db, customerId)).toEqual({
        receivableBalances: 0n,
        currentBalances: collectedMinor,
        settlements: 20,
        maxSettlementsPerAccount: 1,
        settledReceivables: 20,
        settlementsWithoutPair: 0,
      });
    } finally {
      await instance.knex.destroy();
    }
  });
});
