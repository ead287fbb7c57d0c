import { ALL_SCOPES } from '../src';
import { inMemoryApplication } from '../testing';

describe('customers and credentials', () => {
  it('creates a customer with MAIN and SUB current accounts and a credential holding every scope', async () => {
    const { app, store } = inMemoryApplication();
    const { customer, clientId, clientSecret } = await app.customers.create.execute({ name: 'Acme' });
    const accounts = [...store.committed.currentAccounts.values()].filter((a) => a.customerId === customer.id);
    expect(accounts.map((a) => a.accountType).sort()).toEqual(['MAIN', 'SUB']);
    const login = await app.auth.login.execute({ clientId, clientSecret });
    expect(login.scope).toBe(ALL_SCOPES.join(' '));
  });

  it('allows the owner types it is created with, each once, every one when none is named, and refuses unknown or none', async () => {
    const { app } = inMemoryApplication();
    const named = await app.customers.create.execute({ name: 'Clients', enabledOwnerTypes: ['CLIENT_AND_ASSOCIATE', 'CLIENT', 'CLIENT'] });
    expect(named.customer.enabledOwnerTypes).toEqual(['CLIENT', 'CLIENT_AND_ASSOCIATE']);
    expect((await app.customers.create.execute({ name: 'Everyone' })).customer.enabledOwnerTypes).toEqual(['CLIENT', 'ASSOCIATE', 'CLIENT_AND_ASSOCIATE']);
    await expect(app.customers.create.execute({ name: 'Odd', enabledOwnerTypes: ['CLIENT', 'DRIVER'] })).rejects.toMatchObject({
      invalidParams: [{ name: 'enabledOwnerTypes', reason: 'unknown owner types: DRIVER (known: CLIENT, ASSOCIATE, CLIENT_AND_ASSOCIATE)' }],
    });
    await expect(app.customers.create.execute({ name: 'None', enabledOwnerTypes: [] })).rejects.toMatchObject({ code: 'validation' });
    // An embedder's null is none given; a text is no list.
    expect((await app.customers.create.execute({ name: 'Null', enabledOwnerTypes: null })).customer.enabledOwnerTypes).toHaveLength(3);
    await expect(app.customers.create.execute({ name: 'Text', enabledOwnerTypes: 'CLIENT' as unknown as string[] })).rejects.toMatchObject({
      invalidParams: [{ name: 'enabledOwnerTypes', reason: 'must be a list of owner types' }],
    });
  });

  it('refuses a second customer with the same name and leaves nothing behind', async () => {
    const { app, store } = inMemoryApplication();
    await app.customers.create.execute({ name: 'Acme' });
    await expect(app.customers.create.execute({ name: 'Acme' })).rejects.toMatchObject({ code: 'validation' });
    expect(store.committed.currentAccounts.size).toBe(2);
    expect(store.committed.credentials.size).toBe(1);
  });

  it('bootstraps a sandbox customer once however often it runs, and takes a changed secret', async () => {
    const { app, store } = inMemoryApplication();
    const input = { name: 'Sandbox Customer 1', clientId: 'sandbox-client', clientSecret: 'one' };
    await Promise.all([app.customers.ensureSandbox.execute(input), app.customers.ensureSandbox.execute(input)]);
    await app.customers.ensureSandbox.execute({ ...input, clientSecret: 'two' });
    expect(store.committed.customers.size).toBe(1);
    expect(store.committed.currentAccounts.size).toBe(2);
    expect(store.committed.credentials.size).toBe(1);
    await expect(app.auth.login.execute({ clientId: 'sandbox-client', clientSecret: 'one' })).rejects.toMatchObject({ code: 'invalid-credentials' });
    await expect(app.auth.login.execute({ clientId: 'sandbox-client', clientSecret: 'two' })).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it('rejects unknown scopes for a new credential', async () => {
    const { app } = inMemoryApplication();
    const { customer } = await app.customers.create.execute({ name: 'Acme' });
    await expect(app.credentials.create.execute({ customerId: customer.id, scopes: ['clients:read', 'everything'] })).rejects.toMatchObject({
      code: 'validation',
    });
  });

  it('rejects an empty list of scopes for a new credential instead of granting every scope', async () => {
    const { app, store } = inMemoryApplication();
    const { customer } = await app.customers.create.execute({ name: 'Acme' });
    await expect(app.credentials.create.execute({ customerId: customer.id, scopes: [] })).rejects.toMatchObject({ code: 'validation' });
    expect(store.committed.credentials.size).toBe(1);
  });

  it("lists a customer's credentials with their scopes and status, and no secret", async () => {
    const { app } = inMemoryApplication();
    const { customer, clientId, clientSecret } = await app.customers.create.execute({ name: 'Acme' });
    const second = await app.credentials.create.execute({ customerId: customer.id, scopes: ['clients:read'] });
    await app.credentials.revoke.execute({ clientId });
    const listed = await app.credentials.list.execute({ customerId: customer.id });
    expect(listed.map((c) => [c.clientId, c.scopes, c.status])).toEqual([
      [clientId, ALL_SCOPES, 'REVOKED'],
      [second.clientId, ['clients:read'], 'ACTIVE'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(clientSecret);
    expect(JSON.stringify(listed)).not.toContain(second.clientSecret);
  });

  it('revokes a credential, which can no longer log in, and refuses to revoke it again', async () => {
    const { app } = inMemoryApplication();
    const { clientId, clientSecret } = await app.customers.create.execute({ name: 'Acme' });
    await app.credentials.revoke.execute({ clientId });
    await expect(app.auth.login.execute({ clientId, clientSecret })).rejects.toMatchObject({ code: 'invalid-credentials' });
    await expect(app.credentials.revoke.execute({ clientId })).rejects.toMatchObject({ code: 'invalid-status-transition' });
  });

  it('refuses to revoke a credential that does not exist', async () => {
    const { app } = inMemoryApplication();
    await expect(app.credentials.revoke.execute({ clientId: 'nobody' })).rejects.toMatchObject({ code: 'resource-not-found' });
  });

  it('refuses to list the credentials of a customer that does not exist', async () => {
    const { app } = inMemoryApplication();
    await expect(app.credentials.list.execute({ customerId: 42 })).rejects.toMatchObject({ code: 'resource-not-found' });
  });
});
