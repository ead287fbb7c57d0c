import { composeCvu } from '../../src';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const NOW = new Date('2026-03-01T10:00:00.000Z');

export function customerRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('customer and credential repositories', () => {
    const ctx = useHarness(factory);

    const insertCustomer = (name: string) =>
      ctx.h.uow.run((tx) =>
        tx.customers.insertIfAbsent({ name, approvalControl: true, enabledOwnerTypes: ['CLIENT'], aliasTemplate: 'acme.{id:6}', creationDate: NOW }),
      );

    it('keeps one customer per name and one credential per clientId', async () => {
      const name = `customer-${process.pid}-${Date.now()}`;
      const results = [await insertCustomer(name), await insertCustomer(name)];
      expect(results.map((r) => r.created)).toEqual([true, false]);
      const customer = results[0].customer;
      expect(results[1].customer.id).toBe(customer.id);
      expect(await ctx.h.uow.run((tx) => tx.customers.get(customer.id))).toEqual({
        id: customer.id,
        name,
        approvalControl: true,
        enabledOwnerTypes: ['CLIENT'],
        aliasTemplate: 'acme.{id:6}',
        creationDate: NOW,
      });

      const clientId = `cred-${name}`;
      const draft = {
        customerId: customer.id,
        clientId,
        secretHash: 'h1',
        scopes: ['clients:read', 'clients:write'],
        status: 'ACTIVE' as const,
        creationDate: NOW,
      };
      const first = await ctx.h.uow.run((tx) => tx.credentials.insertIfAbsent(draft));
      const second = await ctx.h.uow.run((tx) => tx.credentials.insertIfAbsent({ ...draft, secretHash: 'h2' }));
      expect([first.created, second.created]).toEqual([true, false]);
      expect(second.credential).toEqual({ ...draft, id: first.credential.id });
    });

    itRacing('keeps one customer per name when transactions insert it at once', async () => {
      const name = `customer-${process.pid}-${Date.now()}-race`;
      const results = await Promise.all([1, 2, 3].map(() => insertCustomer(name)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.customer.id)).size).toBe(1);
    });

    const insertCredential = async (suffix: string) => {
      const customerId = await ctx.newCustomer();
      const clientId = `cred-${process.pid}-${Date.now()}-${suffix}`;
      const { credential } = await ctx.h.uow.run((tx) =>
        tx.credentials.insertIfAbsent({ customerId, clientId, secretHash: 'old', scopes: [], status: 'ACTIVE', creationDate: NOW }),
      );
      return credential;
    };

    it('replaces a secret hash', async () => {
      const { id, clientId } = await insertCredential('h');
      await ctx.h.uow.run((tx) => tx.credentials.replaceSecretHash(id, 'new'));
      expect((await ctx.h.uow.run((tx) => tx.credentials.findByClientId(clientId)))?.secretHash).toBe('new');
    });

    it('saves a revoked credential, which then refuses to be revoked again', async () => {
      const { clientId } = await insertCredential('r');
      const revoke = () => ctx.h.uow.run(async (tx) => tx.credentials.update((await tx.credentials.getForUpdate(clientId))!.revoke()));
      await revoke();
      expect((await ctx.h.uow.run((tx) => tx.credentials.findByClientId(clientId)))?.status).toBe('REVOKED');
      await expect(revoke()).rejects.toMatchObject({ code: 'invalid-status-transition' });
    });

    it('refuses to save a move made on a credential read before another move was saved', async () => {
      const { clientId } = await insertCredential('s');
      const stale = await ctx.h.uow.run((tx) => tx.credentials.getForUpdate(clientId));
      await ctx.h.uow.run(async (tx) => tx.credentials.update((await tx.credentials.getForUpdate(clientId))!.revoke()));
      await expect(ctx.h.uow.run((tx) => tx.credentials.update(stale!.revoke()))).rejects.toMatchObject({ code: 'concurrent-modification' });
      expect((await ctx.h.uow.run((tx) => tx.credentials.findByClientId(clientId)))?.status).toBe('REVOKED');
    });

    it("lists customers oldest first and a customer's credentials without their secret hashes", async () => {
      const [first, second] = [await ctx.newCustomer(), await ctx.newCustomer()];
      const draft = { customerId: second, secretHash: 'kept-in-storage', scopes: ['clients:read'], status: 'ACTIVE' as const, creationDate: NOW };
      const ids = [`cred-${process.pid}-${Date.now()}-a`, `cred-${process.pid}-${Date.now()}-b`];
      for (const clientId of ids) await ctx.h.uow.run((tx) => tx.credentials.insertIfAbsent({ ...draft, clientId }));
      const listed = (await ctx.h.customerQueries.list()).map((c) => c.id);
      expect(listed.filter((id) => id === first || id === second)).toEqual([first, second]);
      expect(await ctx.h.customerQueries.get(second)).toMatchObject({ id: second });
      const credentials = await ctx.h.customerQueries.credentialsOf(second);
      expect(credentials).toEqual(
        ids.map((clientId) => ({ id: expect.any(Number), customerId: second, clientId, scopes: ['clients:read'], status: 'ACTIVE', creationDate: NOW })),
      );
      expect(await ctx.h.customerQueries.credentialsOf(first)).toEqual([]);
    });

    it('names each alias template customers have once', async () => {
      await insertCustomer(`customer-${process.pid}-${Date.now()}-t1`);
      await insertCustomer(`customer-${process.pid}-${Date.now()}-t2`);
      const templates = await ctx.h.uow.run((tx) => tx.customers.aliasTemplates());
      expect(templates.filter((t) => t === 'acme.{id:6}')).toEqual(['acme.{id:6}']);
    });

    it("stores current accounts, lists them by customer and reads any customer's by id", async () => {
      const customerId = await ctx.newCustomer();
      const id = await ctx.h.uow.run((tx) => tx.currentAccounts.nextId());
      const account = {
        id,
        customerId,
        accountType: 'MAIN' as const,
        cvu: composeCvu('0000003', BigInt(id)),
        alias: `main.cta.${id}`,
        currencyCode: 'ARS' as const,
        status: 'ACTIVE' as const,
        lastSettlementDate: null,
        creationDate: NOW,
        modificationDate: NOW,
      };
      await ctx.h.uow.run((tx) => tx.currentAccounts.insert(account));
      expect(await ctx.h.uow.run((tx) => tx.currentAccounts.listByCustomer(customerId))).toEqual([account]);
      // By id, whoever asks: ids that are no current account are left out, a repeated one answered once.
      expect(await ctx.h.uow.run((tx) => tx.currentAccounts.getMany([id, 987_654_321, id]))).toEqual([account]);
      expect(await ctx.h.uow.run((tx) => tx.currentAccounts.getMany([]))).toEqual([]);
    });
  });
}
