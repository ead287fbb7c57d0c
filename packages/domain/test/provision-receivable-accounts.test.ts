import { Client, DEFAULT_CUSTOMER_SETTINGS, retryDelayMs } from '../src';
import { aClientDetails, inMemoryApplication } from '../testing';

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

describe('provisioning receivable accounts', () => {
  it('activates an account with the CVU from the provider and an alias from the customer template', async () => {
    const w = await setUp('acme.{id:5}');
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ activated: 1 });
    expect(w.state()).toMatchObject({ status: 'ACTIVE', alias: `acme.${String(w.account.id).padStart(5, '0')}` });
    expect(w.bank.requests[0]).toMatchObject({ requestId: w.requestId, holderName: 'Kiosco El Sol SRL', holderTaxId: aClientDetails().taxId });
    expect(w.events()).toEqual(['receivable-account.activated']);
  });

  it('asks again after the poll delay while the provider says PENDING, without spending attempts', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, { state: 'PENDING' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ pending: 1 });
    expect(w.state().provisioning.attempts).toBe(0);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ pending: 0, activated: 0 });
    w.clock.advance(500);
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ activated: 1 });
  });

  it('retries failures with growing delays and disables the account after the last allowed attempt', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, ...Array.from({ length: 8 }, (_, i) => (i % 2 ? ('timeout' as const) : ('down' as const))));
    const policy = { ...w.provisioningPolicy };
    for (let attempt = 1; attempt < 8; attempt++) {
      expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ retrying: 1 });
      expect(w.state().provisioning.attempts).toBe(attempt);
      const wait = w.state().provisioning.nextAttemptAt!.getTime() - w.clock.now().getTime();
      expect(wait).toBe(retryDelayMs(policy, attempt));
      w.clock.advance(wait);
    }
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ disabled: 1 });
    expect(w.state()).toMatchObject({ status: 'DISABLED', provisioning: { attempts: 8, nextAttemptAt: null } });
    expect(w.state().provisioning.lastError).toMatch(/gave up after 8 failed attempts; last: TIMEOUT/);
    expect(w.state().disabled).toEqual({ reason: 'PROVISIONING_RETRIES_EXHAUSTED', message: null });
    expect(w.events()).toEqual(['receivable-account.disabled']);
  });

  it('disables at once on a permanent rejection', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, { state: 'REJECTED', reason: 'blocked holder' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ disabled: 1 });
    expect(w.state().provisioning.lastError).toBe('rejected by the provider: blocked holder');
    expect(w.state().disabled).toEqual({ reason: 'PROVIDER_REJECTED', message: 'blocked holder' });
  });

  it('treats a CVU with wrong check digits as a failed attempt', async () => {
    const w = await setUp();
    w.bank.script(w.requestId, { state: 'ASSIGNED', cvu: '1234567890123456789012' });
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ retrying: 1 });
    expect(w.state().cvu).toBeNull();
  });

  it('leaves an account alone that was disabled while the provider was being asked', async () => {
    const w = await setUp();
    const slow = w.bank.requestCvu.bind(w.bank);
    w.bank.requestCvu = async (request) => {
      await w.app.receivableAccounts.disable.execute({ customerId: w.account.customerId, accountId: w.account.id });
      return slow(request);
    };
    expect(await w.app.receivableAccounts.provision.execute({ limit: 10 })).toMatchObject({ skipped: 1 });
    expect(w.state()).toMatchObject({ status: 'DISABLED', cvu: null });
  });
});
