import {
  Associate,
  Client,
  composeCvu,
  ConcurrentModificationError,
  openCurrentAccounts,
  ReceivableAccount,
  type AccountOwner,
  type TransactionScope,
} from '../../src';
import { aBranch, aClientDetails, anAssociateDetails, validTaxId } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
let serial = 0;

async function parties(tx: TransactionScope, customerId: number) {
  serial += 1;
  const { client } = await tx.clients.insertIfAbsent(
    Client.register(
      customerId,
      aClientDetails({ taxId: validTaxId('30', 20000000 + serial * 10), businessName: `Holder ${serial} SA`, ...aBranch(`BR-${serial}`) }),
      T0,
    ),
  );
  const { associate } = await tx.associates.insertIfAbsent(
    Associate.register(customerId, anAssociateDetails({ taxId: validTaxId('20', 20000000 + serial * 10), name: 'Ana', lastName: `Gómez${serial}` }), T0),
  );
  return { client, associate };
}

async function open(tx: TransactionScope, customerId: number, owner: AccountOwner, when = T0) {
  const draft = ReceivableAccount.open({ id: await tx.receivableAccounts.nextId(), customerId, owner, currencyCode: 'ARS' }, when);
  return tx.receivableAccounts.insertIfAbsent(draft);
}

export function receivableAccountRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('receivable account repository', () => {
    const ctx = useHarness(factory);

    it('stores accounts of each owner type and reads them back with their owners', async () => {
      const customerId = await ctx.newCustomer();
      const { client, associate } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const accounts = await ctx.h.uow.run(async (tx) => [
        (await open(tx, customerId, { clientId: client.id, associateId: null })).account,
        (await open(tx, customerId, { clientId: null, associateId: associate.id })).account,
        (await open(tx, customerId, { clientId: client.id, associateId: associate.id })).account,
      ]);
      const records = await Promise.all(accounts.map((a) => ctx.h.receivableAccountQueries.get(a.id)));
      expect(records.map((r) => r?.account.ownerType)).toEqual(['CLIENT', 'ASSOCIATE', 'CLIENT_AND_ASSOCIATE']);
      expect(records[0]?.account.toSnapshot()).toEqual(accounts[0].toSnapshot());
      expect(records[2]?.owners).toEqual({
        client: { displayName: client.toSnapshot().businessName, taxId: client.toSnapshot().taxId, branchExternalCode: client.toSnapshot().branchExternalCode },
        associate: { displayName: `Ana Gómez${serial}`, taxId: associate.toSnapshot().taxId },
      });
      expect(records[1]?.owners.client).toBeUndefined();
      expect(records[0]?.pendingAmountMinor).toBe(0n);
    });

    it('returns the existing account for the same owner and currency instead of opening another', async () => {
      const customerId = await ctx.newCustomer();
      const { client } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const first = await ctx.h.uow.run((tx) => open(tx, customerId, { clientId: client.id, associateId: null }));
      const again = await ctx.h.uow.run((tx) => open(tx, customerId, { clientId: client.id, associateId: null }));
      expect([first.created, again.created]).toEqual([true, false]);
      expect(again.account.id).toBe(first.account.id);
    });

    itRacing('keeps one account per owner and currency under concurrent inserts', async () => {
      const customerId = await ctx.newCustomer();
      const { client } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const results = await Promise.all(
        Array.from({ length: 6 }, () => ctx.h.uow.run((tx) => open(tx, customerId, { clientId: client.id, associateId: null }))),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.account.id)).size).toBe(1);
      const found = await ctx.h.uow.run((tx) => tx.receivableAccounts.findByOwner(customerId, { clientId: client.id, associateId: null }, 'ARS'));
      expect(found?.id).toBe(results[0].account.id);
    });

    it('refuses a stale write, a second account for an owner and a used alias', async () => {
      const customerId = await ctx.newCustomer();
      const { client, associate } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const [alone, both] = await ctx.h.uow.run(async (tx) => [
        (await open(tx, customerId, { clientId: client.id, associateId: null })).account,
        (await open(tx, customerId, { clientId: client.id, associateId: associate.id })).account,
      ]);
      const active = alone.assignCvu('0000044100000000000014', `alias.${alone.id}`, at(1));
      await ctx.h.uow.run((tx) => tx.receivableAccounts.update(active));
      await expect(ctx.h.uow.run((tx) => tx.receivableAccounts.update(alone.disable(at(2))))).rejects.toBeInstanceOf(ConcurrentModificationError);
      await expect(ctx.h.uow.run((tx) => tx.receivableAccounts.update(active.update({ associateId: associate.id }, at(3))))).rejects.toMatchObject({
        code: 'receivable-account-already-exists',
      });
      const clash = both.assignCvu('0000044100000000000021', `alias.${alone.id}`, at(4));
      await expect(ctx.h.uow.run((tx) => tx.receivableAccounts.update(clash))).rejects.toMatchObject({ code: 'alias-already-in-use' });
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.aliasInUse(`alias.${alone.id}`, both.id))).toBe(true);
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.aliasInUse(`alias.${alone.id}`, alone.id))).toBe(false);
    });

    it("claims an account's alias change for one holder at a time, until it ends it or its time passes", async () => {
      const customerId = await ctx.newCustomer();
      const { client } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const { account } = await ctx.h.uow.run((tx) => open(tx, customerId, { clientId: client.id, associateId: null }));
      const claim = (holder: string, now: Date) =>
        ctx.h.uow.run((tx) => tx.receivableAccounts.claimAliasChange(account.id, holder, now, new Date(now.getTime() + 30_000)));
      const racing = await Promise.all(['a', 'b', 'c'].map((holder) => claim(holder, at(0))));
      expect(racing.filter(Boolean)).toHaveLength(1);
      const winner = ['a', 'b', 'c'][racing.indexOf(true)];
      const end = (holder: string) => ctx.h.uow.run((tx) => tx.receivableAccounts.endAliasChange(account.id, holder));
      const extend = (holder: string, now: Date, until: Date) => ctx.h.uow.run((tx) => tx.receivableAccounts.extendAliasChange(account.id, holder, now, until));
      // Ending or extending another's claim does nothing; the holder's own extends and ends it, once.
      expect([await end('nobody'), await extend('nobody', at(1), at(90))]).toEqual([false, false]);
      expect(await claim('d', at(1))).toBe(false);
      expect(await extend(winner, at(1), at(90))).toBe(true);
      expect(await claim('d', at(60))).toBe(false);
      expect([await end(winner), await end(winner)]).toEqual([true, false]);
      expect(await claim('d', at(60))).toBe(true);
      // Never ended (its holder died): another claims it once its time has passed, and the dead one cannot extend it.
      expect(await claim('e', at(89))).toBe(false);
      expect(await extend('d', at(90), at(200))).toBe(false);
      expect(await claim('e', at(90))).toBe(true);
    });

    it('lists the accounts whose alias-change claims ran out unended, the longest ended first, none of those still standing', async () => {
      const customerId = await ctx.newCustomer();
      const { client, associate } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const [first, second, third] = await ctx.h.uow.run(async (tx) => [
        (await open(tx, customerId, { clientId: client.id, associateId: null })).account,
        (await open(tx, customerId, { clientId: client.id, associateId: associate.id })).account,
        (await open(tx, customerId, { clientId: null, associateId: associate.id })).account,
      ]);
      const claim = (id: number, holder: string, until: Date) => ctx.h.uow.run((tx) => tx.receivableAccounts.claimAliasChange(id, holder, at(0), until));
      await claim(first.id, 'a', at(30));
      await claim(second.id, 'b', at(20));
      await claim(third.id, 'c', at(40));
      const abandoned = async (now: Date, limit = 1_000) =>
        (await ctx.h.uow.run((tx) => tx.receivableAccounts.abandonedAliasChanges(now, limit))).filter((id) => [first.id, second.id, third.id].includes(id));
      expect(await abandoned(at(19))).toEqual([]);
      expect(await abandoned(at(30))).toEqual([second.id, first.id]);
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.extendAliasChange(third.id, 'c', at(31), at(31)))).toBe(true);
      expect(await abandoned(at(31))).toEqual([second.id, first.id, third.id]);
      await ctx.h.uow.run((tx) => tx.receivableAccounts.endAliasChange(second.id, 'b'));
      expect(await abandoned(at(50))).toEqual([first.id, third.id]);
    });

    it('holds an alias once in any letter case, among receivable and current accounts alike', async () => {
      const customerId = await ctx.newCustomer();
      const { client, associate } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const [first, second] = await ctx.h.uow.run(async (tx) => [
        (await open(tx, customerId, { clientId: client.id, associateId: null })).account,
        (await open(tx, customerId, { clientId: client.id, associateId: associate.id })).account,
      ]);
      await ctx.h.uow.run((tx) => tx.receivableAccounts.update(first.assignCvu(composeCvu('0000441', BigInt(first.id)), `Case.${first.id}`, at(1))));
      const clash = second.assignCvu(composeCvu('0000441', BigInt(second.id)), `cASE.${first.id}`, at(2));
      await expect(ctx.h.uow.run((tx) => tx.receivableAccounts.update(clash))).rejects.toMatchObject({ code: 'alias-already-in-use' });
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.aliasInUse(`CASE.${first.id}`, second.id))).toBe(true);
      await ctx.h.uow.run((tx) => openCurrentAccounts(tx, customerId, { now: () => T0 }));
      const [main] = await ctx.h.uow.run((tx) => tx.currentAccounts.listByCustomer(customerId));
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.aliasInUse(main.alias.toUpperCase(), second.id))).toBe(true);
    });

    it('finds the account of any kind that a CVU or an alias names, the CVU first, and says whether it is ACTIVE', async () => {
      const customerId = await ctx.newCustomer();
      const { client } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const { account } = await ctx.h.uow.run((tx) => open(tx, customerId, { clientId: client.id, associateId: null }));
      const cvu = composeCvu('0000442', BigInt(account.id));
      const assigned = account.assignCvu(cvu, `Hosted.${account.id}`, at(1));
      await ctx.h.uow.run((tx) => tx.receivableAccounts.update(assigned));
      await ctx.h.uow.run((tx) => openCurrentAccounts(tx, customerId, { now: () => T0 }));
      const [main] = await ctx.h.uow.run((tx) => tx.currentAccounts.listByCustomer(customerId));
      const find = (cbuCvu: string | null, alias: string | null) => ctx.h.uow.run((tx) => tx.receivableAccounts.hostedAccount({ cbuCvu, alias }));
      const receivable = { kind: 'RECEIVABLE', id: account.id, customerId, cvu, active: true };
      expect(await find(cvu, null)).toEqual(receivable);
      expect(await find(null, `HOSTED.${account.id}`)).toEqual(receivable);
      expect(await find(null, main.alias.toUpperCase())).toEqual({ kind: 'CURRENT', id: main.id, customerId, cvu: main.cvu, active: true });
      expect(await find(main.cvu, `hosted.${account.id}`)).toEqual({ kind: 'CURRENT', id: main.id, customerId, cvu: main.cvu, active: true });
      expect(await find(composeCvu('0070999', BigInt(account.id)), 'nobody.here.x')).toBeUndefined();
      const byCvu = (cvus: string[]) => ctx.h.uow.run(async (tx) => (await tx.receivableAccounts.hostedByCvu(cvus)).sort((a, b) => a.id - b.id));
      const current = { kind: 'CURRENT', id: main.id, customerId, cvu: main.cvu, active: true };
      expect(await byCvu([main.cvu, composeCvu('0070999', BigInt(account.id)), cvu, main.cvu])).toEqual([receivable, current].sort((a, b) => a.id - b.id));
      expect(await byCvu([])).toEqual([]);
      await ctx.h.uow.run((tx) => tx.receivableAccounts.update(assigned.disable(at(2))));
      expect(await find(cvu, null)).toEqual({ ...receivable, active: false });
      expect(await byCvu([cvu, cvu])).toEqual([{ ...receivable, active: false }]);
    });

    it('leases due PROVISIONING accounts to one claimant at a time, with their holder and alias template', async () => {
      const customerId = await ctx.newCustomer();
      const { client, associate } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const far = new Date('2100-01-01T00:00:00Z');
      // Far in the future, so accounts other tests leave due are already leased by then and stay out of the way.
      const [byClient, byAssociate] = await ctx.h.uow.run(async (tx) => [
        (await open(tx, customerId, { clientId: client.id, associateId: null }, far)).account,
        (await open(tx, customerId, { clientId: null, associateId: associate.id }, new Date(far.getTime() + 1000))).account,
      ]);
      const mine = (claims: { account: ReceivableAccount }[]) => claims.map((c) => c.account.id).filter((id) => [byClient.id, byAssociate.id].includes(id));
      const claim = (now: Date, leaseUntil: Date) => ctx.h.uow.run((tx) => tx.receivableAccounts.claimForProvisioning(now, leaseUntil, 1000));

      const lease = new Date(far.getTime() + 60_000);
      const first = await claim(new Date(far.getTime() + 5000), lease);
      expect(mine(first)).toEqual([byClient.id, byAssociate.id]);
      const claimed = first.find((c) => c.account.id === byClient.id)!;
      expect(claimed).toMatchObject({ holderName: client.toSnapshot().businessName, holderTaxId: client.toSnapshot().taxId, aliasTemplate: 'cta.{id:7}' });
      expect(first.find((c) => c.account.id === byAssociate.id)?.holderName).toBe(`Ana Gómez${serial}`);
      expect(mine(await claim(new Date(far.getTime() + 6000), lease))).toEqual([]);

      // Recording an answer ends the lease; an account scheduled later is not due yet.
      await ctx.h.uow.run((tx) =>
        tx.receivableAccounts.update(claimed.account.retryProvisioning(new Date(far.getTime() + 30_000), 'HTTP_503', new Date(far.getTime() + 7000))),
      );
      expect(mine(await claim(new Date(far.getTime() + 8000), lease))).toEqual([]);
      expect(mine(await claim(new Date(far.getTime() + 31_000), lease))).toEqual([byClient.id]);
      // A lease that ran out (its worker died) lets another worker take the account; the earliest due come first.
      expect(mine(await claim(new Date(lease.getTime() + 1), new Date(lease.getTime() + 60_000)))).toEqual([byAssociate.id, byClient.id]);
    });

    it('lists with every filter and derives the associates sharing accounts with a client', async () => {
      const customerId = await ctx.newCustomer();
      const { client, associate } = await ctx.h.uow.run((tx) => parties(tx, customerId));
      const accounts = await ctx.h.uow.run(async (tx) => [
        (await open(tx, customerId, { clientId: client.id, associateId: null }, at(1))).account,
        (await open(tx, customerId, { clientId: null, associateId: associate.id }, at(2))).account,
        (await open(tx, customerId, { clientId: client.id, associateId: associate.id }, at(3))).account,
      ]);
      const active = accounts[0].assignCvu('0000044100000000000038', `list.${accounts[0].id}`, at(4));
      await ctx.h.uow.run((tx) => tx.receivableAccounts.update(active));
      const ids = (filter: object) =>
        ctx.h.receivableAccountQueries.list({ customerId, ...filter }, { page: 1, count: 20 }).then((p) => p.items.map((r) => r.account.id));
      const [a, b, c] = accounts.map((x) => x.id);
      expect(await ids({})).toEqual([c, b, a]);
      expect(await ids({ status: 'ACTIVE' })).toEqual([a]);
      expect(await ids({ status: 'PROVISIONING' })).toEqual([c, b]);
      expect(await ids({ ownerType: 'CLIENT' })).toEqual([a]);
      expect(await ids({ ownerType: 'ASSOCIATE' })).toEqual([b]);
      expect(await ids({ ownerType: 'CLIENT_AND_ASSOCIATE' })).toEqual([c]);
      expect(await ids({ clientId: client.id })).toEqual([c, a]);
      expect(await ids({ associateId: associate.id })).toEqual([c, b]);
      expect(await ids({ clientTaxId: client.toSnapshot().taxId })).toEqual([c, a]);
      expect(await ids({ clientTaxId: client.toSnapshot().taxId, branchExternalCode: 'nope' })).toEqual([]);
      expect(await ids({ cvu: '0000044100000000000038' })).toEqual([a]);
      expect(await ids({ alias: `list.${a}` })).toEqual([a]);
      expect(await ids({ alias: `LIST.${a}` })).toEqual([a]);
      const sharing = await ctx.h.associateQueries.listSharingAccountsWith(customerId, client.id, { page: 1, count: 20 });
      expect(sharing.items.map((x) => x.id)).toEqual([associate.id]);
    });
  });
}
