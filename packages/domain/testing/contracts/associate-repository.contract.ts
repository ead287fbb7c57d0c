import { Associate, ConcurrentModificationError } from '../../src';
import { anAssociateDetails, validTaxId } from '../builders';
import { useHarness, type HarnessFactory } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function associateRepositoryContract(factory: HarnessFactory): void {
  describe('associate repository', () => {
    const ctx = useHarness(factory);

    it('stores an associate, reads it back and keeps one per taxId', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Associate.register(customerId, anAssociateDetails({ address: 'Calle 1' }), T0);
      const first = await ctx.h.uow.run((tx) => tx.associates.insertIfAbsent(draft));
      const again = await ctx.h.uow.run((tx) => tx.associates.insertIfAbsent(Associate.register(customerId, anAssociateDetails({ name: 'Other' }), at(1))));
      expect([first.created, again.created]).toEqual([true, false]);
      expect(again.associate.id).toBe(first.associate.id);
      expect((await ctx.h.associateQueries.get(first.associate.id))?.toSnapshot()).toEqual({ ...draft, id: first.associate.id });
    });

    it('saves a status change and refuses a stale write', async () => {
      const customerId = await ctx.newCustomer();
      const { associate } = await ctx.h.uow.run((tx) => tx.associates.insertIfAbsent(Associate.register(customerId, anAssociateDetails(), T0)));
      await ctx.h.uow.run((tx) => tx.associates.update(associate.disable(at(2))));
      expect((await ctx.h.associateQueries.get(associate.id))?.status).toBe('DISABLED');
      await expect(ctx.h.uow.run((tx) => tx.associates.update(associate.disable(at(3))))).rejects.toBeInstanceOf(ConcurrentModificationError);
    });

    it('reads a row under either lock, and nothing for an unknown id', async () => {
      const customerId = await ctx.newCustomer();
      const { associate } = await ctx.h.uow.run((tx) => tx.associates.insertIfAbsent(Associate.register(customerId, anAssociateDetails(), T0)));
      const read = await ctx.h.uow.run(async (tx) => [await tx.associates.getForShare(associate.id), await tx.associates.getForUpdate(associate.id)]);
      expect(read.map((a) => a?.toSnapshot())).toEqual([associate.toSnapshot(), associate.toSnapshot()]);
      expect(await ctx.h.uow.run((tx) => tx.associates.getForShare(999_999_999))).toBeUndefined();
    });

    it('walks up the supervisor chain, and stops on a loop stored before loops were refused', async () => {
      const customerId = await ctx.newCustomer();
      const chain: Associate[] = [];
      for (let i = 0; i < 3; i++) {
        const details = anAssociateDetails({ taxId: validTaxId('20', 41000000 + i * 10), parentAssociateId: chain[i - 1]?.id ?? null });
        chain.push((await ctx.h.uow.run((tx) => tx.associates.insertIfAbsent(Associate.register(customerId, details, at(i))))).associate);
      }
      const [top, middle, bottom] = chain;
      expect(await ctx.h.uow.run((tx) => tx.associates.supervisorChain(bottom.id))).toEqual([bottom.id, middle.id, top.id]);
      await ctx.h.uow.run((tx) =>
        tx.associates.update(top.replaceDetails({ ...anAssociateDetails({ taxId: top.toSnapshot().taxId }), parentAssociateId: bottom.id }, at(5))),
      );
      expect(await ctx.h.uow.run((tx) => tx.associates.supervisorChain(middle.id))).toEqual([middle.id, top.id, bottom.id]);
      expect(await ctx.h.uow.run((tx) => tx.associates.supervisorChain(999_999_999))).toEqual([]);
    });

    it('lists with every filter, newest first', async () => {
      const customerId = await ctx.newCustomer();
      const made: Associate[] = [];
      for (let i = 0; i < 4; i++) {
        const details = anAssociateDetails({
          taxId: validTaxId('20', 40000000 + i * 10),
          documentNumber: `4000000${i}`,
          type: i % 2 ? 'DISTRIBUTOR' : 'DRIVER',
          parentAssociateId: i > 0 ? made[0].id : null,
        });
        const { associate } = await ctx.h.uow.run((tx) => tx.associates.insertIfAbsent(Associate.register(customerId, details, at(i))));
        made.push(associate);
      }
      await ctx.h.uow.run((tx) => tx.associates.update(made[3].disable(at(9))));
      const ids = (filter: object) => ctx.h.associateQueries.list({ customerId, ...filter }, { page: 1, count: 20 }).then((p) => p.items.map((a) => a.id));
      expect(await ids({})).toEqual([made[3].id, made[2].id, made[1].id, made[0].id]);
      expect(await ids({ status: 'ACTIVE' })).toEqual([made[2].id, made[1].id, made[0].id]);
      expect(await ids({ type: 'DISTRIBUTOR' })).toEqual([made[3].id, made[1].id]);
      expect(await ids({ parentAssociateId: made[0].id, status: 'ACTIVE' })).toEqual([made[2].id, made[1].id]);
      expect(await ids({ documentNumber: '40000002' })).toEqual([made[2].id]);
      expect(await ids({ taxId: validTaxId('20', 40000010) })).toEqual([made[1].id]);
    });
  });
}
