import { DEFAULT_PROVISIONING_POLICY, ProviderError } from '../src';
import { activeAccountWithReceivables as setUp } from './support/active-account';

describe('changing a receivable account', () => {
  it('answers an update with the changed account and its pending sum, all its answer needs', async () => {
    const w = await setUp();
    const updated = await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nuevo' });
    expect(updated.account.toSnapshot().alias).toBe('acme.nuevo');
    expect(updated.pendingAmountMinor).toBe(16_000n);
  });

  it("registers the account's alias at the provider for its CVU before storing it, and its old one back when storing fails", async () => {
    const w = await setUp();
    const { alias: generated, cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    expect((await w.bank.resolveAlias(generated!))?.cbuCvu).toBe(cvu);
    await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nuevo' });
    expect((await w.bank.resolveAlias('acme.nuevo'))?.cbuCvu).toBe(cvu);
    // The account is disabled while the provider registers the next alias: the change is refused once checked again.
    const register = w.bank.registerAlias.bind(w.bank);
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async (registration) => {
      const answer = await register(registration);
      await w.app.receivableAccounts.disable.execute(w.target);
      return answer;
    });
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.otro' })).rejects.toMatchObject({ code: 'invalid-status-transition' });
    expect((await w.bank.resolveAlias('acme.nuevo'))?.cbuCvu).toBe(cvu);
    expect(await w.bank.resolveAlias('acme.otro')).toBeUndefined();
  });

  it("refuses another change of the account's alias while one is registered at the provider, until it ends or its claim's time does", async () => {
    const w = await setUp();
    const { cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const register = w.bank.registerAlias.bind(w.bank);
    let meanwhile: Promise<unknown> = Promise.resolve();
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async (registration) => {
      meanwhile = w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.dos' }).catch((error: unknown) => error);
      await meanwhile;
      return register(registration);
    });
    await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.uno' });
    expect(await meanwhile).toMatchObject({ code: 'concurrent-modification' });
    expect((await w.bank.resolveAlias('acme.uno'))?.cbuCvu).toBe(cvu);
    expect(await w.bank.resolveAlias('acme.dos')).toBeUndefined();

    // A claim its request never ended (it died between registering and storing) holds the alias until its time.
    const dead = await w.uow.run((tx) =>
      tx.receivableAccounts.claimAliasChange(w.target.accountId, 'dead', w.clock.now(), new Date(w.clock.now().getTime() + 120_000)),
    );
    expect(dead).toBe(true);
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.tres' })).rejects.toMatchObject({ code: 'concurrent-modification' });
    w.clock.advance(120_000);
    expect((await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.tres' })).account.toSnapshot().alias).toBe('acme.tres');
  });

  it('leaves the alias to the change that took its claim once it ran out, registering nothing back', async () => {
    const w = await setUp();
    const { cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const register = w.bank.registerAlias.bind(w.bank);
    let secondRegistered!: () => void;
    let firstAnswered!: () => void;
    const registeredSecond = new Promise<void>((resolve) => (secondRegistered = resolve));
    const answeredFirst = new Promise<void>((resolve) => (firstAnswered = resolve));
    let second: Promise<unknown> = Promise.resolve();
    jest
      .spyOn(w.bank, 'registerAlias')
      // The first change's call outlasts its claim; a second change claims the alias, registers its own and waits.
      .mockImplementationOnce(async (registration) => {
        const answer = await register(registration);
        w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs + 1);
        second = w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.otra' });
        await registeredSecond;
        return answer;
      })
      .mockImplementationOnce(async (registration) => {
        const answer = await register(registration);
        secondRegistered();
        await answeredFirst;
        return answer;
      });
    const first = await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nueva' }).catch((error: unknown) => error);
    firstAnswered();
    expect(first).toMatchObject({ code: 'concurrent-modification' });
    await second;
    expect((await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot().alias).toBe('acme.otra');
    expect((await w.bank.resolveAlias('acme.otra'))?.cbuCvu).toBe(cvu);
  });

  it('stores no alias over one written meanwhile without a claim (an instance of the previous version), and registers that one back', async () => {
    const w = await setUp();
    const { cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const register = w.bank.registerAlias.bind(w.bank);
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async (registration) => {
      const answer = await register(registration);
      await w.uow.run(async (tx) => {
        const current = (await tx.receivableAccounts.getForUpdate(w.target.accountId))!;
        await tx.receivableAccounts.update(current.update({ alias: 'acme.vieja' }, w.clock.now()));
      });
      return answer;
    });
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nueva' })).rejects.toMatchObject({ code: 'concurrent-modification' });
    expect((await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot().alias).toBe('acme.vieja');
    expect((await w.bank.resolveAlias('acme.vieja'))?.cbuCvu).toBe(cvu);
    expect(await w.bank.resolveAlias('acme.nueva')).toBeUndefined();
  });

  it('stores an alias the provider registered though its answer was lost, and keeps the old one when it did not', async () => {
    const w = await setUp();
    const { cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const lost = new ProviderError('external-provider-timeout', { code: 'TIMEOUT', detail: 'no answer in time' });
    const register = w.bank.registerAlias.bind(w.bank);
    jest.spyOn(w.bank, 'registerAlias').mockImplementationOnce(async (registration) => {
      await register(registration);
      throw lost;
    });
    const stored = await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.llego' });
    expect(stored.account.toSnapshot().alias).toBe('acme.llego');
    expect((await w.bank.resolveAlias('acme.llego'))?.cbuCvu).toBe(cvu);

    jest.spyOn(w.bank, 'registerAlias').mockRejectedValueOnce(lost);
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.perdido' })).rejects.toBe(lost);
    expect((await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot().alias).toBe('acme.llego');
    expect((await w.bank.resolveAlias('acme.llego'))?.cbuCvu).toBe(cvu);
  });

  it('refuses to store an alias sent unchanged (so not registered) over one a change registered and stored meanwhile', async () => {
    const w = await setUp();
    const { alias: stored, cvu } = (await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot();
    const run = w.uow.run.bind(w.uow);
    // The first transaction of the unchanged PUT checks it; before it stores, another change gives the account a new alias.
    jest.spyOn(w.uow, 'run').mockImplementationOnce(async (work) => {
      const checked = await run(work);
      await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nueva' });
      return checked;
    });
    await expect(w.app.receivableAccounts.update.execute({ ...w.target, alias: stored! })).rejects.toMatchObject({ code: 'concurrent-modification' });
    expect((await w.app.receivableAccounts.get.execute(w.target)).account.toSnapshot().alias).toBe('acme.nueva');
    expect((await w.bank.resolveAlias('acme.nueva'))?.cbuCvu).toBe(cvu);
  });

  it('answers an activation with the activated account and its pending sum', async () => {
    const w = await setUp();
    await w.app.receivableAccounts.disable.execute(w.target);
    const activated = await w.app.receivableAccounts.activate.execute(w.target);
    expect(activated.account.status).toBe('ACTIVE');
    expect(activated.pendingAmountMinor).toBe(16_000n);
  });
});
