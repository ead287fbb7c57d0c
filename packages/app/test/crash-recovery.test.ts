import { spawn } from 'node:child_process';
import path from 'node:path';
import { simulatedCvu } from '@rcs/adapters-bank';
import { cvuRequestId } from '@rcs/domain';
import { activeAccount, parties } from './support/fixtures';
import { backendsGone, childUrl } from './support/killed-child';
import { SANDBOX, startTestApi, type TestApi } from './support/test-api';

type When = 'before' | 'after' | 'answering';

/** Runs crash-child.js to its death at the first statement matching `pattern`; resolves to what it said. */
async function crashAt(api: TestApi, when: When, pattern: string, work: string[]): Promise<string> {
  const script = path.join(__dirname, 'support', 'crash-child.js');
  const child = spawn(process.execPath, [script, childUrl(api.db.url), api.db.schema, when, pattern, ...work], { stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  child.stdout.on('data', (chunk) => (said += chunk));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
  expect(said).toMatch(/^killed /);
  expect(signal).toBe('SIGKILL');
  await backendsGone(api.db.knex);
  return said;
}

/** A process killed at any statement of its work leaves storage that the next process completes exactly once. */
describe('crash recovery', () => {
  let api: TestApi;
  let token: string;
  beforeAll(async () => {
    api = await startTestApi();
    token = await api.login(SANDBOX);
  });
  afterAll(() => api.close());

  describe('between the provider assigning a CVU and its recording', () => {
    it.each<[string, When, string]>([
      ['before it reads the account under lock', 'before', '^select \\* from "receivable_accounts" where "id"'],
      ['before it writes the CVU', 'before', '^update "receivable_accounts"'],
      ['after it wrote the CVU, before COMMIT', 'after', '^update "receivable_accounts"'],
    ])('ends ACTIVE with the one CVU the provider assigned when killed %s and restarted', async (_moment, when, pattern) => {
      const { client } = await parties(api, token);
      const opened = await api.call('post', '/v1/receivable-accounts', {
        token,
        body: { clientId: client.id },
        headers: { 'Idempotency-Key': `crash-cvu-${when}-${pattern}` },
      });
      const accountId = opened.body.id as number;

      await crashAt(api, when, pattern, ['provision', api.bankUrl]);
      expect(await api.db.knex('receivable_accounts').where({ id: accountId }).first('status', 'cvu')).toEqual({ status: 'PROVISIONING', cvu: null });

      // The restart comes after the killed pass's lease (60 s) and its claim of the account's alias (about a minute)
      // ran out: the test moves both instead of waiting.
      await api.db.knex('receivable_accounts').where({ id: accountId }).update({ locked_until: null });
      await api.db
        .knex('alias_claims')
        .where({ account_id: accountId })
        .update({ claimed_until: new Date(0) });
      await api.provisionAll();

      const account = await api.call('get', `/v1/receivable-accounts/${accountId}`, { token });
      expect(account.body).toMatchObject({ status: 'ACTIVE', cvu: simulatedCvu(cvuRequestId(accountId)) });
      const activations = await api.db
        .knex('outbox_events')
        .where({ type: 'receivable-account.activated' })
        .whereRaw(`data::jsonb -> 'receivableAccount' ->> 'id' = ?`, [String(accountId)]);
      expect(activations).toHaveLength(1);
    });
  });

  it("registers an account's stored alias back at the provider when a PUT was killed between registering its new one and storing it", async () => {
    const opened = (await activeAccount(api, token)).account;
    const account = (await api.call('get', `/v1/receivable-accounts/${opened.id}`, { token })).body as { id: number; alias: string; cvu: string };
    const stored = account.alias;
    const resolve = async (alias: string) =>
      (await fetch(`${api.bankUrl}/v1/aliases/${encodeURIComponent(alias)}`).then((res) => res.json())) as { cbuCvu: string };
    const body = JSON.stringify({ alias: `crash.nuevo.${account.id}` });
    await crashAt(api, 'before', '^update "receivable_accounts"', ['put', api.bankUrl, token, `/v1/receivable-accounts/${account.id}`, body]);
    // The provider names the new alias for the account's CVU; the service still stores the old one.
    expect((await resolve(`crash.nuevo.${account.id}`)).cbuCvu).toBe(account.cvu);
    expect((await api.call('get', `/v1/receivable-accounts/${account.id}`, { token })).body.alias).toBe(stored);

    // The killed request's claim runs out (the test moves it instead of waiting its minute), and the job reconciles.
    await api.db
      .knex('alias_claims')
      .where({ account_id: account.id })
      .update({ claimed_until: new Date(0) });
    const pass = await api.app.receivableAccounts.reconcileAliases.execute({ limit: 10 });
    expect(pass).toMatchObject({ restored: 1, replaced: [], taken: [], failed: [] });
    expect((await resolve(stored)).cbuCvu).toBe(account.cvu);
    expect((await resolve(`crash.nuevo.${account.id}`)).cbuCvu).not.toBe(account.cvu);
    expect(await api.db.knex('alias_claims').where({ account_id: account.id })).toEqual([]);
  });

  describe('inside an idempotent write', () => {
    let accountId: number;
    beforeAll(async () => {
      accountId = (await activeAccount(api, token)).account.id;
    });

    /** Sends the creation through a child that dies at `pattern`, then retries it here with the same key. */
    async function createThroughCrash(when: When, pattern: string) {
      const key = `crash-write-${when}-${pattern}`;
      const body = { receivableAccountId: accountId, amount: '10.50', currencyCode: 'ARS', receivableType: 'INVOICE', legalNumber: key };
      await crashAt(api, when, pattern, ['post', token, '/v1/receivables', key, JSON.stringify(body)]);
      const retry = await api.call('post', '/v1/receivables', { token, body, headers: { 'Idempotency-Key': key } });
      const rows = await api.db
        .knex('receivables')
        .where({ legal_number: key })
        .pluck('id')
        .then((ids) => ids.map(Number));
      const events = await api.db
        .knex('outbox_events')
        .where({ type: 'receivable.created' })
        .whereRaw(`data::jsonb -> 'receivable' ->> 'legalNumber' = ?`, [key]);
      return { retry, rows, events };
    }

    it.each([
      ['before it inserts the resource', '^INSERT INTO receivables'],
      ['before it records the event', '^WITH recorded AS \\(INSERT INTO outbox_events'],
      ['before it stores the answer', '^UPDATE idempotency_keys'],
      ['before COMMIT', '^COMMIT'],
    ])('runs the retry with the same key once when the first attempt was killed %s', async (_moment, pattern) => {
      const { retry, rows, events } = await createThroughCrash('before', pattern);
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(rows).toEqual([retry.body.id]);
      expect(events).toHaveLength(1);
    });

    it('replays the committed answer to the retry when the first attempt was killed after COMMIT, before answering', async () => {
      const { retry, rows, events } = await createThroughCrash('answering', '-');
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(rows).toEqual([retry.body.id]);
      expect(events).toHaveLength(1);
    });
  });
});
