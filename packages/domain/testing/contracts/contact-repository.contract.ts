import { composeCvu, ConcurrentModificationError, Contact, DuplicatedContactError, type ContactDestination } from '../../src';
import { validTaxId } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const destination = (n: number, alias: string | null = null): ContactDestination => ({
  cbuCvu: composeCvu('0070999', BigInt(n)),
  alias,
  entity: 'Banco de Galicia',
});
const details = (name = 'Proveedor SA', taxId = validTaxId('30', 71000000)) => ({ name, taxId });

export function contactRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('contact repository', () => {
    const ctx = useHarness(factory);
    const insert = (customerId: number, dest: ContactDestination, when = T0, name?: string) =>
      ctx.h.uow.run((tx) => tx.contacts.insert(Contact.create(customerId, details(name), dest, when)));

    it('stores a recipient and reads back every field', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Contact.create(customerId, details(), destination(1, 'Prov.Sur'), T0);
      const contact = await ctx.h.uow.run((tx) => tx.contacts.insert(draft));
      expect((await ctx.h.contactQueries.get(contact.id))?.toSnapshot()).toEqual({ ...draft, id: contact.id });
      expect((await ctx.h.uow.run((tx) => tx.contacts.get(contact.id)))?.toSnapshot()).toEqual(contact.toSnapshot());
    });

    const refusal = (field: 'cbuCvu' | 'alias', holder: Contact) =>
      expect.objectContaining({
        code: 'duplicated-contact',
        message: `recipient ${holder.id} already has this ${field}`,
        extras: { existingResourceId: holder.id },
      });

    it('refuses a second recipient of the customer with the same CBU/CVU, or the same alias in any letter case, naming the one that has it', async () => {
      const customerId = await ctx.newCustomer();
      const holder = await insert(customerId, destination(2, 'prov.norte'));
      const other = await insert(customerId, destination(11, 'prov.oeste'));
      await expect(insert(customerId, destination(2))).rejects.toEqual(refusal('cbuCvu', holder));
      await expect(insert(customerId, destination(3, 'PROV.NORTE'))).rejects.toEqual(refusal('alias', holder));
      await expect(insert(customerId, destination(11, 'prov.norte'))).rejects.toEqual(refusal('cbuCvu', other));
      expect((await ctx.h.contactQueries.list({ customerId }, { page: 1, count: 20 })).total).toBe(2);
    });

    it('lets another customer save the same CBU/CVU and alias', async () => {
      const [one, two] = [await ctx.newCustomer(), await ctx.newCustomer()];
      await insert(one, destination(4, 'prov.este'));
      await expect(insert(two, destination(4, 'prov.este'))).resolves.toBeInstanceOf(Contact);
    });

    itRacing('lets one of many concurrent saves of one CBU/CVU win and refuses the others', async () => {
      const customerId = await ctx.newCustomer();
      const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => insert(customerId, destination(5), T0, `Racer ${i}`)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused.every((r) => r.reason instanceof DuplicatedContactError)).toBe(true);
    });

    it('saves a replaced recipient, refuses a stale write and a taken CBU/CVU', async () => {
      const customerId = await ctx.newCustomer();
      const contact = await insert(customerId, destination(6));
      const holder = await insert(customerId, destination(7, 'taken.alias'));
      const edited = contact.replace(details('Renamed SA'), destination(8, 'new.alias'), at(5));
      await ctx.h.uow.run((tx) => tx.contacts.update(edited));
      expect((await ctx.h.contactQueries.get(contact.id))?.toSnapshot()).toMatchObject({
        name: 'Renamed SA',
        alias: 'new.alias',
        modificationDate: at(5),
        version: 2,
      });
      const stale = contact.replace(details('Lost update'), destination(6), at(6));
      await expect(ctx.h.uow.run((tx) => tx.contacts.update(stale))).rejects.toBeInstanceOf(ConcurrentModificationError);
      const taken = edited.replace(details(), destination(9, 'Taken.Alias'), at(7));
      await expect(ctx.h.uow.run((tx) => tx.contacts.update(taken))).rejects.toEqual(refusal('alias', holder));
      const ownAgain = edited.replace(details('Renamed again SA'), destination(8, 'NEW.ALIAS'), at(8));
      await ctx.h.uow.run((tx) => tx.contacts.update(ownAgain));
      expect((await ctx.h.contactQueries.get(contact.id))?.toSnapshot()).toMatchObject({ name: 'Renamed again SA', version: 3 });
    });

    it('deletes a recipient and frees its CBU/CVU and alias for a new one', async () => {
      const customerId = await ctx.newCustomer();
      const contact = await insert(customerId, destination(10, 'libre.ya'));
      await ctx.h.uow.run(async (tx) => tx.contacts.delete((await tx.contacts.getForUpdate(contact.id))!));
      expect(await ctx.h.contactQueries.get(contact.id)).toBeUndefined();
      await expect(insert(customerId, destination(10, 'libre.ya'))).resolves.toBeInstanceOf(Contact);
    });

    it('lists newest first with the taxId and alias filters, paging and the total', async () => {
      const customerId = await ctx.newCustomer();
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        const draft = Contact.create(customerId, details(`C${i}`, validTaxId('20', 30000000 + (i % 2) * 100)), destination(20 + i, `alias.${i}`), at(i));
        ids.push((await ctx.h.uow.run((tx) => tx.contacts.insert(draft))).id);
      }
      const first = await ctx.h.contactQueries.list({ customerId }, { page: 1, count: 3 });
      expect(first.total).toBe(4);
      expect(first.items.map((c) => c.id)).toEqual([ids[3], ids[2], ids[1]]);
      expect((await ctx.h.contactQueries.list({ customerId }, { page: 2, count: 3 })).items.map((c) => c.id)).toEqual([ids[0]]);
      const byTaxId = await ctx.h.contactQueries.list({ customerId, taxId: validTaxId('20', 30000100) }, { page: 1, count: 20 });
      expect(byTaxId.items.map((c) => c.id)).toEqual([ids[3], ids[1]]);
      const byAlias = await ctx.h.contactQueries.list({ customerId, alias: 'ALIAS.2' }, { page: 1, count: 20 });
      expect(byAlias.items.map((c) => c.id)).toEqual([ids[2]]);
      expect((await ctx.h.contactQueries.list({ customerId: await ctx.newCustomer() }, { page: 1, count: 20 })).total).toBe(0);
    });
  });
}
