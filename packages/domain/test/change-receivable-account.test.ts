import { Client, DEFAULT_CUSTOMER_SETTINGS, DEFAULT_PROVISIONING_POLICY, Money, ProviderError } from '../src';
import { aClientDetails, inMemoryApplication } from '../testing';

/** An ACTIVE account holding a PENDING invoice of 150.00 and a credit note of 10.00 under it: 140.00 pending. */
async function setUp() {
  const w = inMemoryApplication();
  const { customer } = await w.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'Acme', creationDate: w.clock.now() }));
  const { client } = await w.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails(), w.clock.now())));
  const account = await w.app.receivableAccounts.open.execute({ customerId: customer.id, clientId: client.id });
  await w.app.receivableAccounts.provision.execute({ limit: 10 });
  const issue = (amount: string, receivableType: 'INVOICE' | 'CREDIT_NOTE', parentReceivableId?: number) =>
    w.app.receivables.issue.execute({
      customerId: customer.id,
      receivableAccountId: account.id,
      amount: Money.parse(amount),
      currencyCode: 'ARS',
      receivableType,
      parentReceivableId,
    });
  const invoice = await issue('150.00', 'INVOICE');
  await issue('10.00', 'CREDIT_NOTE', invoice.id);
  return { ...w, target: { customerId: customer.id, accountId: account.id } };
}

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

  describe('reconciling abandoned alias changes', () => {
    const reconcile = (w: Awaited<ReturnType<typeof setUp>>) => w.app.receivableAccounts.reconcileAliases.execute({ limit: 10 });
    const nothing = { restored: 0, failed: 0, taken: [], more: false };

    /** A change whose request died after the provider registered its alias for the account's CVU, before storing it. */
    async function diedAfterRegistering(w: Awaited<ReturnType<typeof setUp>>, alias: string) {
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
      expect(await reconcile(w)).toEqual({ ...nothing, restored: 1 });
      expect((await w.bank.resolveAlias(stored))?.cbuCvu).toBe(cvu);
      expect(await w.bank.resolveAlias('acme.muerta')).toBeUndefined();
      // Reconciled once, its claim gone: the next pass finds nothing, and the alias can change at once.
      expect(await reconcile(w)).toEqual(nothing);
      expect((await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.viva' })).account.toSnapshot().alias).toBe('acme.viva');
    });

    it('leaves an account whose claim a change took first to that change', async () => {
      const w = await setUp();
      const { cvu } = await diedAfterRegistering(w, 'acme.muerta');
      w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
      await w.app.receivableAccounts.update.execute({ ...w.target, alias: 'acme.nueva' });
      expect(await reconcile(w)).toEqual(nothing);
      expect((await w.bank.resolveAlias('acme.nueva'))?.cbuCvu).toBe(cvu);
    });

    it('keeps trying while the provider does not answer, and names the account whose alias another account took meanwhile', async () => {
      const w = await setUp();
      const { stored } = await diedAfterRegistering(w, 'acme.muerta');
      w.clock.advance(DEFAULT_PROVISIONING_POLICY.aliasClaimMs);
      w.bank.scriptAlias(stored, 'down');
      expect(await reconcile(w)).toEqual({ ...nothing, failed: 1 });
      // A full batch would be run again at once: not one the provider did not answer, due again as soon as it is left.
      expect(await w.app.receivableAccounts.reconcileAliases.execute({ limit: 1 })).toEqual({ ...nothing, failed: 1 });
      w.bank.scriptAlias(stored, { alias: stored, cbuCvu: '2850590940090418135201', holderName: 'Otro', holderTaxId: null, entity: 'Otro banco' });
      expect(await reconcile(w)).toEqual({ ...nothing, taken: [w.target.accountId] });
      expect(await reconcile(w)).toEqual(nothing);
    });

    it('takes over a change whose stored alias could not be registered back, at once instead of after its claim', async () => {
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

      expect(await reconcile(w)).toEqual({ ...nothing, restored: 1 });
      expect((await w.bank.resolveAlias(stored!))?.cbuCvu).toBe(cvu);
      expect(await w.bank.resolveAlias('acme.otro')).toBeUndefined();
    });
  });

  it('answers an activation with the activated account and its pending sum', async () => {
    const w = await setUp();
    await w.app.receivableAccounts.disable.execute(w.target);
    const activated = await w.app.receivableAccounts.activate.execute(w.target);
    expect(activated.account.status).toBe('ACTIVE');
    expect(activated.pendingAmountMinor).toBe(16_000n);
  });
});
