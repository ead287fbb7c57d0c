import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount } from '../support/fixtures';
import { receivableCalls } from '../support/receivable-calls';

/** Parents and their children (negative types): what a child may name, how much the family may sum to, how status moves through it. */
describe('receivable families', () => {
  const ctx = useTestApi();
  const { issue, status, get, invoice, child } = receivableCalls(ctx);

  it('applies the parent rules to negative types', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const other = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, 100)).body;
    expect((await issue({ receivableAccountId: account.id, amount: 1, currencyCode: 'ARS', receivableType: 'RETENTION' })).body.code).toBe(
      'missing-parent-receivable',
    );
    expect((await child(other.account.id, parent.id, 1)).body.code).toBe('parent-receivable-different-account');
    const note = (await child(account.id, parent.id, 10)).body;
    expect((await child(account.id, note.id, 1)).body.code).toBe('parent-receivable-invalid-type');
    expect((await invoice(account.id, 1, { parentReceivableId: parent.id })).status).toBe(400);
    const cancelled = (await invoice(account.id, 5)).body;
    await status(cancelled.id, 'DISABLED');
    expect((await child(account.id, cancelled.id, 1)).body.code).toBe('parent-receivable-not-modifiable');
  });

  it('lets children sum exactly to the parent, and not one cent more', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, '100.00')).body;
    expect((await child(account.id, parent.id, '60.01', 'RETENTION')).status).toBe(201);
    expect((await child(account.id, parent.id, '39.99', 'MISSING_PRODUCT')).status).toBe(201);
    const over = await child(account.id, parent.id, '0.01', 'ADJUSTMENT');
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('child-receivables-exceed-parent-amount');
    const list = await ctx.api.call('get', `/v1/receivables?parentReceivableId=${parent.id}`, { token: ctx.token });
    expect(list.headers['x-total-count']).toBe('2');
  });

  itRacing('never lets concurrent children together exceed their parent', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, 100)).body;
    const results = await Promise.all(Array.from({ length: 8 }, () => child(account.id, parent.id, 30)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 422).every((r) => r.body.code === 'child-receivables-exceed-parent-amount')).toBe(true);
  });

  it('marks PAID with children following, undoes it, and cancels children before the parent', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, 100)).body;
    const note = (await child(account.id, parent.id, 10)).body;
    const paid = await status(parent.id, 'PAID');
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('PAID');
    expect((await get(note.id)).status).toBe('PAID');
    expect((await status(note.id, 'PENDING')).body.code).toBe('invalid-status-transition');
    expect((await status(parent.id, 'PENDING')).body.status).toBe('PENDING');
    expect((await get(note.id)).status).toBe('PENDING');
    const blocked = await status(parent.id, 'DISABLED');
    expect(blocked.status).toBe(422);
    expect(blocked.body.code).toBe('receivable-has-related-items');
    expect((await status(note.id, 'DISABLED')).body.status).toBe('DISABLED');
    expect((await status(parent.id, 'DISABLED')).body.status).toBe('DISABLED');
    expect((await status(parent.id, 'PAID')).body.code).toBe('updating-receivable-final-status');
    expect((await status(parent.id, 'GONE')).status).toBe(400);
    const events = (await ctx.api.db.knex('outbox_events').whereRaw(`(data->'receivable'->>'id')::bigint IN (?, ?)`, [parent.id, note.id]).orderBy('seq')).map(
      (e) => [e.type, e.data.receivable.id],
    );
    // The parent's move is announced before the children that follow it; the undo too, so no integrator holds them PAID.
    expect(events).toEqual([
      ['receivable.created', parent.id],
      ['receivable.created', note.id],
      ['receivable.paid', parent.id],
      ['receivable.paid', note.id],
      ['receivable.reopened', parent.id],
      ['receivable.reopened', note.id],
      ['receivable.disabled', note.id],
      ['receivable.disabled', parent.id],
    ]);
  });

  it('expires a child past its own due date with the daily job (CONTRACT), which still follows its parent to PAID and back', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, 100, { dueDate: '2027-01-10' })).body;
    const note = { receivableAccountId: account.id, currencyCode: 'ARS', receivableType: 'CREDIT_NOTE', parentReceivableId: parent.id };
    const early = (await issue({ ...note, amount: 10, dueDate: '2026-12-01' })).body;
    const late = (await issue({ ...note, amount: 5, dueDate: '2027-02-01' })).body;
    const run = await ctx.api.call('post', '/v1/sandbox/expiration-runs', { token: ctx.token, body: { date: '2026-12-15' } });
    expect(run.body).toEqual({ expiredReceivables: 1 });
    expect([(await get(parent.id)).status, (await get(early.id)).status, (await get(late.id)).status]).toEqual(['PENDING', 'EXPIRED', 'PENDING']);
    await status(parent.id, 'PAID');
    expect([(await get(early.id)).status, (await get(late.id)).status]).toEqual(['PAID', 'PAID']);
    await status(parent.id, 'PENDING');
    expect([(await get(early.id)).status, (await get(late.id)).status]).toEqual(['PENDING', 'PENDING']);
  });

  it('serialises changes to one family arriving together: none deadlocks, children end in their parent status', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, 1000)).body;
    const notes = await Promise.all([1, 2, 3].map(async () => (await child(account.id, parent.id, 10)).body));
    // Editing a child locks it and its parent; paying the parent locks it and its children: opposite orders, unless
    // the storage takes every family parent first.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, round) => [
        status(parent.id, round % 2 === 0 ? 'PAID' : 'PENDING'),
        ...notes.map((note) => ctx.api.call('put', `/v1/receivables/${note.id}`, { token: ctx.token, body: { amount: 11 + round } })),
      ]).flat(),
    );
    expect(
      answers.map((a) => (a.status === 200 ? 200 : `${a.status} ${a.body.code}`)).filter((a) => a !== 200 && a !== '422 invalid-status-transition'),
    ).toEqual([]);
    const family = await Promise.all([parent.id, ...notes.map((n) => n.id)].map(get));
    expect(new Set(family.map((r) => r.status)).size).toBe(1);
  });
});
