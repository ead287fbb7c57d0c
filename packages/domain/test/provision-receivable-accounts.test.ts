import { Client, composeCvu, DEFAULT_CUSTOMER_SETTINGS, ProviderError, retryDelayMs } from '../src';
import { aClientDetails, inMemoryApplication, validTaxId } from '../testing';

async function setUp(aliasTemplate = 'cta.{id:7}') {
  const world = inMemoryApplication();
  const { customer } = await world.uow.run((tx) =>
    tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, aliasTemplate, name: 'Acme', creationDate: world.clock.now() }),
  );
  const { client } = await world.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails(), world.clock.now())));
  const account = await world.app.receivableAccounts.open.execute({ customerId: customer.id, clientId: client.id });
  const state = () => world.store.committed.receivableAccounts.get(account.id)!;
  const events = () => world.store.committed.outbox.map((e) => e.type);
  return { ...world, account, state, events, requestId: `ra-${account.id}` };
}

type World = Awaited<ReturnType<typeof setUp>>;

/** Another PROVISIONING account of the same customer, for a client of its own. */
async function anotherAccount(w: World, n: number) {
  const details = aClientDetails({ taxId: validTaxId('30', 20000000 + n * 10) });
  const { client } = await w.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(w.account.customerId, details, w.clock.now())));
  return w.app.receivableAccounts.open.execute({ customerId: w.account.customerId, clientId: client.id });
}

/** Gives an ACTIVE account this alias the way a customer could before generated aliases were reserved. */
async function holdAlias(w: World, accountId: number, alias: string) {
  await w.uow.run(async (tx) => tx.receivableAccounts.update((await tx.receivableAccounts.getForUpdate(accountId))!.update({ alias }, w.clock.now())));
}

describe('provisioning receivable accounts', () => {
  it('activates an account with the CVU from the provider and an alias from the customer template', async () => {
    const w = await setUp('acme.{id:5}');
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { activated: 1 } });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: `acme.${String(w.account.id).padStart(5, '0')}` });
    expect(w.bank.requests[0]).toMatchObject({ requestId: w.requestId, holderName: 'Kiosco El Sol SRL', holderTaxId: aClientDetails().taxId });
    expect(w.events()).toEqual(['receivable-account.activated']);
  });

  it('asks again after the poll delay while the provider says PENDING, without spending attempts', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, { state: 'PENDING' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { pending: 1 } });
    expect(w.state().provisioning.attempts).toBe(0);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { pending: 0, activated: 0 } });
    w.clock.advance(500);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { activated: 1 } });
  });

  it('retries failures with growing delays and disables the account after the last allowed attempt', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, ...Array.from({ length: 8 }, (_, i) => (i % 2 ? ('timeout' as const) : ('down' as const))));
    const policy = { ...w.provisioningPolicy };
    for (let attempt = 1; attempt < 8; attempt++) {
      expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { retrying: 1 } });
      expect(w.state().provisioning.attempts).toBe(attempt);
      const wait = w.state().provisioning.nextAttemptAt!.getTime() - w.clock.now().getTime();
      expect(wait).toBe(retryDelayMs(policy, attempt));
      w.clock.advance(wait);
    }
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { disabled: 1 } });
    expect(w.state()).toMatchObject({ status: 'DISABLED', provisioning: { attempts: 8, nextAttemptAt: null } });
    expect(w.state().provisioning.lastError).toMatch(/gave up after 8 failed attempts; last: TIMEOUT/);
    expect(w.state().disabled).toEqual({ reason: 'PROVISIONING_RETRIES_EXHAUSTED', message: null });
    expect(w.events()).toEqual(['receivable-account.disabled']);
  });

  it('disables at once on a permanent rejection', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, { state: 'REJECTED', reason: 'blocked holder' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { disabled: 1 } });
    expect(w.state().provisioning.lastError).toBe('rejected by the provider: blocked holder');
    expect(w.state().disabled).toEqual({ reason: 'PROVIDER_REJECTED', message: 'blocked holder' });
  });

  it('treats a CVU with wrong check digits as a failed attempt', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, { state: 'ASSIGNED', cvu: '1234567890123456789012' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { retrying: 1 } });
    expect(w.state().cvu).toBeNull();
  });

  it('gives an account whose generated alias another account holds, in any letter case, the first free suffixed one', async () => {
    const w = await setUp();
    const holder = await anotherAccount(w, 1);
    w.bank.script(w.requestId, { state: 'PENDING' });
    await w.app.receivableAccounts.provision.execute({ limit: 10 });
    const generated = `cta.${String(w.account.id).padStart(7, '0')}`;
    await holdAlias(w, holder.id, generated.toUpperCase());
    w.clock.advance(500);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toEqual({ outcomes: expect.objectContaining({ activated: 1 }), failures: [] });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: `${generated}-2` });
  });

  it('gives an account whose template aliases are all held the fallback alias, asking the provider once', async () => {
    const w = await setUp();
    const generated = `cta.${String(w.account.id).padStart(7, '0')}`;
    const held = [generated, ...Array.from({ length: 8 }, (_, i) => `${generated}-${i + 2}`)];
    const holders = [];
    for (let n = 1; n <= held.length; n++) holders.push(await anotherAccount(w, n));
    w.bank.script(w.requestId, { state: 'PENDING' });
    await w.app.receivableAccounts.provision.execute({ limit: 20 });
    for (const [n, alias] of held.entries()) await holdAlias(w, holders[n].id, alias);
    const asked = () => w.bank.requests.filter((r) => r.requestId === w.requestId).length;
    const askedBefore = asked();
    w.clock.advance(500);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 20 })).toEqual({ outcomes: expect.objectContaining({ activated: 1 }), failures: [] });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: `ra.${String(w.account.id).padStart(7, '0')}`, cvu: expect.any(String) });
    expect(asked() - askedBefore).toBe(1);
  });

  it('gives an account whose derived aliases are all held, the fallback too, the fallback with random letters after it', async () => {
    // A template of 20 characters leaves no room for a suffix: its alias and the fallback are all it derives. Both
    // follow from the account's id, which the next id of the shared sequence makes easy to guess and hold first.
    const w = await setUp('acme.account.{id:7}');
    const [first, second] = [await anotherAccount(w, 1), await anotherAccount(w, 2)];
    w.bank.script(w.requestId, { state: 'PENDING' });
    await w.app.receivableAccounts.provision.execute({ limit: 10 });
    const id = String(w.account.id).padStart(7, '0');
    await holdAlias(w, first.id, `ACME.account.${id}`);
    await holdAlias(w, second.id, `ra.${id}`);
    w.clock.advance(500);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toEqual({ outcomes: expect.objectContaining({ activated: 1 }), failures: [] });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: expect.stringMatching(new RegExp(`^ra\\.${id}\\.[0-9a-z]{4}$`)) });
    expect((await w.bank.resolveAlias(w.state().alias!))?.cbuCvu).toBe(w.state().cvu);
  });

  it('skips an alias an account at another bank holds, as one held here', async () => {
    const w = await setUp();
    const generated = `cta.${String(w.account.id).padStart(7, '0')}`;
    w.bank.scriptAlias(generated, { alias: generated, cbuCvu: composeCvu('0000003', 5n), holderName: null, holderTaxId: null, entity: 'Otro banco' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toEqual({ outcomes: expect.objectContaining({ activated: 1 }), failures: [] });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: `${generated}-2` });
  });

  it('records the other accounts of a pass when one account cannot be recorded, and reports that one', async () => {
    const w = await setUp();
    const holder = await anotherAccount(w, 1);
    w.bank.script(w.requestId, { state: 'PENDING' });
    await w.app.receivableAccounts.provision.execute({ limit: 10 });
    // The provider answers with a CVU another account already has: the database refuses to record it.
    w.bank.script(w.requestId, { state: 'ASSIGNED', cvu: w.store.committed.receivableAccounts.get(holder.id)!.cvu! });
    const other = await anotherAccount(w, 2);
    w.clock.advance(500);
    const pass = await w.app.receivableAccounts.provision.execute({ limit: 10 });
    expect(pass.outcomes).toMatchObject({ activated: 1 });
    expect(pass.failures).toEqual([{ accountId: w.account.id, error: expect.any(Error) }]);
    expect(w.store.committed.receivableAccounts.get(other.id)).toMatchObject({ status: 'ACTIVE' });
    expect(w.state()).toMatchObject({ status: 'PROVISIONING', alias: null });
  });

  it('leaves an account alone that was disabled while the provider was being asked', async () => {
    const w = await setUp();
    const slow = w.bank.requestCvu.bind(w.bank);
    w.bank.requestCvu = async (request) => {
      await w.app.receivableAccounts.disable.execute({ customerId: w.account.customerId, accountId: w.account.id });
      return slow(request);
    };
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { skipped: 1 } });
    expect(w.state()).toMatchObject({ status: 'DISABLED', cvu: null });
    // The alias it registered is not stored, and there is none stored to register back: nothing is left to reconcile.
    expect(w.store.committed.aliasClaims.size).toBe(0);
  });

  it("reports an account whose alias another change is claiming as skipped, not as the pass's failure", async () => {
    const w = await setUp();
    const now = w.clock.now();
    await w.uow.run((tx) => tx.receivableAccounts.claimAliasChange(w.account.id, 'other', now, new Date(now.getTime() + w.provisioningPolicy.aliasClaimMs)));
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { skipped: 1 }, failures: [] });
    expect(w.state()).toMatchObject({ status: 'PROVISIONING', alias: null });
  });

  it('registers no further candidate once its claim ran out and another pass took it, over the alias that pass stored', async () => {
    const w = await setUp();
    const first = `cta.${String(w.account.id).padStart(7, '0')}`;
    let other: Promise<unknown> = Promise.resolve();
    // The provider refuses this pass's first candidate so slowly that its claim and lease run out, and another pass
    // meanwhile registers that same alias (free again) and activates the account with it.
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async () => {
      w.clock.advance(w.provisioningPolicy.aliasClaimMs);
      other = w.app.receivableAccounts.provision.execute({ limit: 10 });
      await other;
      return 'TAKEN';
    });
    const pass = await w.app.receivableAccounts.provision.execute({ limit: 10 });
    expect([pass.outcomes.skipped, await other]).toEqual([1, expect.objectContaining({ outcomes: expect.objectContaining({ activated: 1 }) })]);
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: first });
    expect((await w.bank.resolveAlias(first))?.cbuCvu).toBe(w.state().cvu);
  });

  it('keeps the claim of an attempt whose registration went unanswered until it would have landed, then activates with the alias the provider names', async () => {
    const w = await setUp();
    const first = `cta.${String(w.account.id).padStart(7, '0')}`;
    const register = w.bank.registerAlias.bind(w.bank);
    let late: () => Promise<unknown> = () => Promise.resolve();
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce((registration) => {
      late = () => register(registration);
      return Promise.reject(new ProviderError('external-provider-timeout', { code: 'TIMEOUT', detail: 'no answer in time' }));
    });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { retrying: 1 } });
    expect(w.store.committed.aliasClaims.size).toBe(1);
    // The retry comes before the claim settles: it waits (skipped, the account leased) while the registration lands.
    w.clock.advance(retryDelayMs(w.provisioningPolicy, 1));
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { skipped: 1 } });
    await late();
    w.clock.advance(w.provisioningPolicy.leaseMs);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { activated: 1 } });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: first });
    expect((await w.bank.resolveAlias(first))?.cbuCvu).toBe(w.state().cvu);
    expect(w.store.committed.aliasClaims.size).toBe(0);
  });

  it("keeps the claim of a pass whose account was activated and given an alias once the pass's claim ran out, for the reconciliation to register that alias back", async () => {
    const w = await setUp();
    const slow = w.bank.requestCvu.bind(w.bank);
    const register = w.bank.registerAlias.bind(w.bank);
    // While this pass waits for the CVU, another activates the account and the customer gives it an alias of its own.
    w.bank.requestCvu = async (request) => {
      const answer = await slow(request);
      if (answer.state !== 'ASSIGNED') throw new Error('the scripted provider assigns at once');
      await w.uow.run(async (tx) =>
        tx.receivableAccounts.update((await tx.receivableAccounts.getForUpdate(w.account.id))!.assignCvu(answer.cvu, 'acme.propia', w.clock.now())),
      );
      expect(await register({ alias: 'acme.propia', cbuCvu: answer.cvu })).toBe('REGISTERED');
      return answer;
    };
    // The pass registers its candidate over it, and the provider is slow enough for the pass's claim to run out.
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async (registration) => {
      const answer = await register(registration);
      w.clock.advance(w.provisioningPolicy.aliasClaimMs);
      return answer;
    });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ outcomes: { skipped: 1 } });
    const cvu = w.state().cvu!;
    expect(await w.bank.resolveAlias('acme.propia')).toBeUndefined();
    expect(await w.app.receivableAccounts.reconcileAliases.execute({ limit: 10 })).toMatchObject({ restored: 1 });
    expect((await w.bank.resolveAlias('acme.propia'))?.cbuCvu).toBe(cvu);
  });
});
