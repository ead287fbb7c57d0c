import { spawn } from 'node:child_process';
import type { Application } from '@rcs/domain';
import path from 'node:path';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { backendsGone, childUrl } from './support/killed-child';
import { countingSimulator, payingInstanceOn, payoutState, seedTransfers, TEST_TRANSFER_LEASE_MS } from './support/transfer-world';

const AMOUNTS = Array.from({ length: 10 }, (_, i) => BigInt(1_000 + i * 37));
const FUNDED = 1_000_000n;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The workers' lease, and a little more: a dead worker's lease has ended after it. */
const LEASE_ENDS_MS = TEST_TRANSFER_LEASE_MS + 100;

/** Transfers are paid exactly once, whatever runs the worker and wherever it dies. */
describe('transfer payouts exactly once', () => {
  let db: TestDatabase;
  let bank: Awaited<ReturnType<typeof countingSimulator>>;
  beforeAll(async () => {
    db = await openTestDatabase();
    bank = await countingSimulator();
  });
  afterAll(async () => {
    await bank.stop();
    await db.close();
  });

  /** Every transfer ended as its destination says, each debited once, sent to the provider once, and the money adds up. */
  async function expectPaidExactlyOnce(mainId: number, ids: readonly number[]) {
    const state = await payoutState(db, mainId, ids);
    for (const t of state.transfers) {
      const rejected = (ids.indexOf(t.id) + 1) % 5 === 0;
      expect(t).toMatchObject(rejected ? { status: 'FAILED', sides: ['TRANSFER_OUT', 'TRANSFER_REVERSAL'] } : { status: 'COMPLETED', sides: ['TRANSFER_OUT'] });
      expect(bank.sends.get(`tr-${t.id}`)).toBe(1);
      const record = (await (await fetch(`${bank.url}/v1/payouts/tr-${t.id}`)).json()) as { state: string; amountMinor: string };
      expect(record).toMatchObject({ state: rejected ? 'REJECTED' : 'COMPLETED', amountMinor: t.amountMinor.toString() });
    }
    expect(state.balance).toBe(FUNDED - state.sum('COMPLETED'));
  }

  /** Whatever the moment of the crash: no transfer moved without its debit, none debited twice, balances equal movements. */
  async function expectConsistentCut(mainId: number, ids: readonly number[]) {
    const state = await payoutState(db, mainId, ids);
    let debited = 0n;
    for (const t of state.transfers) {
      if (t.status === 'PENDING') expect(t.sides).toEqual([]);
      if (t.status === 'IN_PROGRESS' || t.status === 'COMPLETED') expect(t.sides).toEqual(['TRANSFER_OUT']);
      if (t.status === 'FAILED') expect(t.sides).toEqual(['TRANSFER_OUT', 'TRANSFER_REVERSAL']);
      if (t.status === 'IN_PROGRESS' || t.status === 'COMPLETED') debited += t.amountMinor;
    }
    expect(state.balance).toBe(FUNDED - debited);
    return state;
  }

  /**
   * Transfer runs of `apps` side by side, again once their leases ended, until every transfer is final (20 rounds at
   * most): a run starts no payout past half its lease and leaves the rest to the next, which a loaded machine's
   * first run reaches. Every run's tally, summed.
   */
  async function runUntilFinal(apps: ReadonlyArray<{ app: Application }>, mainId: number, ids: readonly number[]) {
    const sum = { completed: 0, failed: 0 };
    for (let round = 0; round < 20; round++) {
      for (const run of await Promise.all(apps.map(({ app }) => app.transfers.process.execute()))) {
        sum.completed += run.completed;
        sum.failed += run.failed;
      }
      const state = await payoutState(db, mainId, ids);
      if (state.count('PENDING') + state.count('IN_PROGRESS') === 0) break;
      await sleep(LEASE_ENDS_MS);
    }
    return sum;
  }

  async function runChild(args: string[], killOnAnswer?: number) {
    const script = path.join(__dirname, 'support', 'transfer-child.js');
    const child = spawn(process.execPath, [script, childUrl(db.url), db.schema, bank.url, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, TRANSFER_LEASE_MS: String(TEST_TRANSFER_LEASE_MS) },
    });
    let answered = 0;
    if (killOnAnswer !== undefined) bank.onPayoutAnswered(() => ++answered === killOnAnswer && child.kill('SIGKILL'));
    let said = '';
    child.stdout.on('data', (chunk) => (said += chunk));
    const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await backendsGone(db.knex);
    return { exit, said };
  }

  it.each([
    ['while debiting the first chunk', 'INSERT INTO movements', 1],
    ['after the debit, before the chunk commits', 'UPDATE transfers t SET', 1],
    ['after the provider took the first chunk, before recording it', "status = 'IN_PROGRESS' ORDER BY id", 1],
    ['while recording the first chunk', 'UPDATE transfers t SET', 2],
    ['while debiting the second chunk', 'INSERT INTO movements', 2],
  ])('dies %s, and the next run pays every transfer exactly once', async (_when, text, occurrence) => {
    const instance = payingInstanceOn(db, bank.url);
    try {
      const { mainId, ids } = await seedTransfers(db, instance.app, FUNDED, AMOUNTS, 5);
      const { exit, said } = await runChild([text, String(occurrence)]);
      expect(exit).toBe('SIGKILL');
      expect(said).toMatch(/^killed before: /);
      await expectConsistentCut(mainId, ids);
      expect(await instance.app.ledger.verify.execute()).toEqual([]);

      await sleep(LEASE_ENDS_MS);
      await runUntilFinal([instance], mainId, ids);
      await expectPaidExactlyOnce(mainId, ids);
      expect(await instance.app.ledger.verify.execute()).toEqual([]);
    } finally {
      await instance.knex.destroy();
    }
  });

  it('dies just after the provider answered a payout, and the next run records it from the provider instead of paying again', async () => {
    const instance = payingInstanceOn(db, bank.url);
    try {
      const { mainId, ids } = await seedTransfers(db, instance.app, FUNDED, AMOUNTS, 5);
      const { exit } = await runChild([], 3);
      expect(exit).toBe('SIGKILL');
      const cut = await expectConsistentCut(mainId, ids);
      expect(cut.count('IN_PROGRESS')).toBeGreaterThan(0);

      await sleep(LEASE_ENDS_MS);
      const run = await runUntilFinal([instance], mainId, ids);
      expect(run.completed + run.failed).toBe(cut.count('IN_PROGRESS') + cut.count('PENDING'));
      await expectPaidExactlyOnce(mainId, ids);
    } finally {
      await instance.knex.destroy();
    }
  });

  itOnRealServer('two instances racing need two connections; PGlite has one')(
    'never overdraws nor pays twice when two instances pay many transfers from a balance that covers only some',
    async () => {
      const [one, two] = [payingInstanceOn(db, bank.url, { TRANSFER_BATCH_SIZE: '7' }), payingInstanceOn(db, bank.url, { TRANSFER_BATCH_SIZE: '7' })];
      try {
        const amounts = Array.from({ length: 120 }, (_, i) => BigInt(100 + (i % 13) * 11));
        const total = amounts.reduce((a, b) => a + b, 0n);
        const funded = total / 2n;
        const { mainId, ids } = await seedTransfers(db, one.app, funded, amounts);
        const runs = await runUntilFinal([one, two], mainId, ids);
        const state = await payoutState(db, mainId, ids);
        expect(runs.completed).toBe(state.count('COMPLETED'));
        expect(state.count('COMPLETED') + state.count('FAILED')).toBe(amounts.length);
        expect(state.balance).toBe(funded - state.sum('COMPLETED'));
        expect(state.balance >= 0n).toBe(true);
        // Every failure was for lack of money: nothing cheaper than the balance left was failed for it.
        const failedMinor = state.transfers.filter((t) => t.status === 'FAILED').map((t) => t.amountMinor);
        expect(failedMinor.every((a) => a > state.balance)).toBe(true);
        for (const t of state.transfers) {
          expect(t.sides).toEqual(t.status === 'COMPLETED' ? ['TRANSFER_OUT'] : []);
          expect(bank.sends.get(`tr-${t.id}`) ?? 0).toBe(t.status === 'COMPLETED' ? 1 : 0);
        }
        expect(await one.app.ledger.verify.execute()).toEqual([]);
      } finally {
        await Promise.all([one.knex.destroy(), two.knex.destroy()]);
      }
    },
  );
});
