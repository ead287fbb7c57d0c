import { DEFAULT_PROVISIONING_POLICY, ProviderError } from '../src';
import { activeAccountWithReceivables as setUp, type AccountWorld } from './support/active-account';

describe('reconciling abandoned alias changes', () => {
  const reconcile = (w: AccountWorld, limit = 10) => w.app.receivableAccounts.reconcileAliases.execute({ limit });
  const nothing = { restored: 0, replaced: [], taken: [], failed: [], more: false };
  const aliasOf = async (w: AccountWorld) => (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot().alias;

  /** A change whose request died after the provider registered its alias for the account's CVU, before storing it. */
  async function diedAfterRegistering(w: AccountWorld, alias: string) {
    const { alias: stored, cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const now = w.clock.now();
    await w.uow.run((tx) =>
      tx.receivableAccounts.claimAliasChange(w.target.accountId, 'dead', now, new Date(now.getTime() + DEFAULT_PROVISIONING_POLICY.aliasClaimMs)),
    );
    expect(await w.bank.registerAlias({ alias, cbuCvu: cvu! })).toBe('REGISTERED');
    return { stored: stored!, cvu: cvu! };
  }

  it("registers the stored alias back once the dead change's claim has run out, and only then", async () => {
    const w = await setUp();
    const { stored, cvu } = await diedAfterRegistering(w, 'acme.muerta');
    expect(await reconcile(w)).toEqual(nothing);
    expect((await w.bank.resolveAlias('acme.muerta'))?.cbuCvu).toBe(cvu);

    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    expect(await reconcile(w, 1)).toEqual({ ...nothing, restored: 1, more: true });
    expect((await w.bank.resolveAlias(stored))?.cbuCvu).toBe(cvu);
    expect(await w.bank.resolveAlias('acme.muerta')).toBeUndefined();
    // Reconciled once, its claim gone: the next pass finds nothing, and the alias can change at once.
    expect(await reconcile(w)).toEqual(nothing);
    expect((await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.viva' })).account.toSnapshot().alias).toBe('acme.viva');
  });

  it('leaves an account to a change that claimed it after the pass listed it', async () => {
    const w = await setUp();
    const { cvu } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    const register = w.bank.registerAlias.bind(w.bank);
    let entered!: () => void;
    let proceed!: () => void;
    const inProvider = new Promise<void>((resolve) => (entered = resolve));
    const mayProceed = new Promise<void>((resolve) => (proceed = resolve));
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async (registration) => {
      entered();
      await mayProceed;
      return register(registration);
    });
    const run = w.uow.run.bind(w.uow);
    let change: Promise<unknown> = Promise.resolve();
    // The pass lists the account; a PUT claims it and is at the provider when the pass comes to claim it.
    jest.spyOn(w.uow, 'run').mockImplementationOnce(async (work) => {
      const listed = await run(work);
      change = w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nueva' });
      await inProvider;
      return listed;
    });
    expect(await reconcile(w)).toEqual(nothing);
    proceed();
    await change;
    expect(await aliasOf(w)).toBe('acme.nueva');
    expect((await w.bank.resolveAlias('acme.nueva'))?.cbuCvu).toBe(cvu);
    expect(await reconcile(w)).toEqual(nothing);
  });

  const settle = (w: AccountWorld) => w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasSettleMs);

  it('tries again after a while while the provider does not answer, naming its error', async () => {
    const w = await setUp();
    const { stored, cvu } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    w.bank.scriptAlias(stored, 'down');
    const failed = { ...nothing, failed: [{ accountId: w.target.accountId, error: expect.objectContaining({ code: 'external-provider-unavailable' }) }] };
    expect(await reconcile(w)).toEqual(failed);
    // Not again before aliasSettleMs, by this pass or another instance's.
    expect(await reconcile(w)).toEqual(nothing);
    settle(w);
    expect(await reconcile(w)).toEqual(failed);
    settle(w);
    w.bank.scriptAlias(stored, { alias: stored, cbuCvu: cvu, holderName: null, holderTaxId: null, entity: 'Scripted provider' });
    expect(await reconcile(w)).toEqual({ ...nothing, restored: 1 });
  });

  it('gives the account another alias when another account holds its stored one at the provider now', async () => {
    const w = await setUp();
    const { stored, cvu } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    w.bank.scriptAlias(stored, { alias: stored, cbuCvu: '2850590940090418135201', holderName: 'Otro', holderTaxId: null, entity: 'Otro banco' });
    const pass = await reconcile(w);
    const given = await aliasOf(w);
    expect(pass).toEqual({ ...nothing, replaced: [{ accountId: w.target.accountId, previous: stored, alias: given }] });
    expect(given).toMatch(new RegExp(`^ra\\.${String(w.target.accountId).padStart(7, '0')}\\.[0-9a-z]{4}$`));
    expect((await w.bank.resolveAlias(given!))?.cbuCvu).toBe(cvu);
    expect(await reconcile(w)).toEqual(nothing);
  });

  it('names the account again after a while while no other alias can be registered for it', async () => {
    const w = await setUp();
    const { stored } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    jest.spyOn(w.bank, 'registerAlias').mockResolvedValue('TAKEN');
    const taken = { ...nothing, taken: [w.target.accountId] };
    expect(await reconcile(w)).toEqual(taken);
    expect(await reconcile(w)).toEqual(nothing);
    settle(w);
    expect(await reconcile(w)).toEqual(taken);
    expect(await aliasOf(w)).toBe(stored);
  });

  it("names the provider's error when the new alias's registration goes unanswered, and tries again later", async () => {
    const w = await setUp();
    const { stored } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    const timeout = new ProviderError('external-provider-timeout', { code: 'TIMEOUT', detail: 'no answer in time' });
    jest.spyOn(w.bank, 'registerAlias').mockResolvedValueOnce('TAKEN').mockRejectedValueOnce(timeout);
    expect(await reconcile(w)).toEqual({ ...nothing, failed: [{ accountId: w.target.accountId, error: timeout }] });
    expect(await aliasOf(w)).toBe(stored);
    settle(w);
    expect(await reconcile(w)).toMatchObject({ restored: 1 });
  });

  it('leaves the alias to a change that took the claim while the pass waited on the provider, replacing nothing', async () => {
    const w = await setUp();
    const { cvu } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    // The provider says the stored alias is another's, so slowly that the pass's claim runs out and a PUT takes it.
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async () => {
      w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
      await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nueva' });
      return 'TAKEN';
    });
    expect(await reconcile(w)).toEqual(nothing);
    expect(await aliasOf(w)).toBe('acme.nueva');
    expect((await w.bank.resolveAlias('acme.nueva'))?.cbuCvu).toBe(cvu);
  });

  it('stores no new alias over one written meanwhile without a claim, and reconciles that one after a while', async () => {
    const w = await setUp();
    const { stored, cvu } = await diedAfterRegistering(w, 'acme.muerta');
    w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
    w.bank.scriptAlias(stored, { alias: stored, cbuCvu: '2850590940090418135201', holderName: 'Otro', holderTaxId: null, entity: 'Otro banco' });
    const register = w.bank.registerAlias.bind(w.bank);
    jest
      .spyOn(w.bank, 'registerAlias')
      .mockImplementationOnce((registration) => register(registration))
      // While the new alias is registered, an instance of the previous version writes another without a claim.
      .mockImplementationOnce(async (registration) => {
        const answer = await register(registration);
        await w.uow.run(async (tx) => {
          const current = (await tx.receivableAccounts.getForUpdate(w.target.accountId))!;
          await tx.receivableAccounts.update(current.update({ alias: 'acme.vieja' }, w.clock.now()));
        });
        return answer;
      });
    const pass = await reconcile(w);
    expect(pass).toEqual({ ...nothing, failed: [{ accountId: w.target.accountId, error: expect.objectContaining({ code: 'concurrent-modification' }) }] });
    expect(await aliasOf(w)).toBe('acme.vieja');
    settle(w);
    expect(await reconcile(w)).toEqual({ ...nothing, restored: 1 });
    expect((await w.bank.resolveAlias('acme.vieja'))?.cbuCvu).toBe(cvu);
  });

  it("registers the stored alias back after a failed change's claim has settled, and refuses another change until then", async () => {
    const w = await setUp();
    const { alias: stored, cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const register = w.bank.registerAlias.bind(w.bank);
    // The new alias is registered, storing it fails (the account was disabled meanwhile), and the provider is gone when its old one is registered back.
    jest
      .spyOn(w.bank, 'registerAlias')
      .mockImplementationOnce(async (registration) => {
        const answer = await register(registration);
        await w.app.receivableAccounts.disable.execute(w.target);
        return answer;
      })
      .mockRejectedValueOnce(new ProviderError('external-provider-unavailable', { code: 'DOWN', detail: 'unreachable' }));
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.otro' })).rejects.toMatchObject({ code: 'invalid-status-transition' });
    expect((await w.bank.resolveAlias('acme.otro'))?.cbuCvu).toBe(cvu);
    await w.app.receivableAccounts.activate.execute(w.target);
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.pronto' })).rejects.toMatchObject({ code: 'concurrent-modification' });
    expect(await reconcile(w)).toEqual(nothing);

    settle(w);
    expect(await reconcile(w)).toEqual({ ...nothing, restored: 1 });
    expect((await w.bank.resolveAlias(stored!))?.cbuCvu).toBe(cvu);
    expect(await w.bank.resolveAlias('acme.otro')).toBeUndefined();
    expect((await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.pronto' })).account.toSnapshot().alias).toBe('acme.pronto');
  });

  it('keeps no claim after a change the provider answered, the stored alias registered back: the next change runs at once', async () => {
    const w = await setUp();
    const { cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    w.bank.scriptAlias('acme.ajena', { alias: 'acme.ajena', cbuCvu: '2850590940090418135201', holderName: 'Otro', holderTaxId: null, entity: 'Otro banco' });
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.ajena' })).rejects.toMatchObject({ code: 'alias-already-in-use' });
    expect((await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.propia' })).account.toSnapshot().alias).toBe('acme.propia');
    expect((await w.bank.resolveAlias('acme.propia'))?.cbuCvu).toBe(cvu);
    expect(w.store.committed.aliasClaims.size).toBe(0);
  });

  it('registers the stored alias once more after a failed change, for a registration of its the provider carries out late', async () => {
    const w = await setUp();
    const { alias: stored, cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    let late: () => Promise<unknown> = () => Promise.resolve();
    const register = w.bank.registerAlias.bind(w.bank);
    // The provider times out on the new alias and carries the registration out after the old one was registered back.
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce((registration) => {
      late = () => register(registration);
      return Promise.reject(new ProviderError('external-provider-timeout', { code: 'TIMEOUT', detail: 'no answer in time' }));
    });
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.tarde' })).rejects.toMatchObject({ code: 'external-provider-timeout' });
    await late();
    expect((await w.bank.resolveAlias('acme.tarde'))?.cbuCvu).toBe(cvu);

    settle(w);
    expect(await reconcile(w)).toEqual({ ...nothing, restored: 1 });
    expect((await w.bank.resolveAlias(stored!))?.cbuCvu).toBe(cvu);
    expect(await w.bank.resolveAlias('acme.tarde')).toBeUndefined();
  });
});
