import fc from 'fast-check';
import { Client, formatMinor, Money, ReceivableAccount, signedAmount } from '../src';
import { aClientDetails, inMemoryApplication, validTaxId } from '../testing';

type Step = { kind: 'collect'; account: number; minor: bigint } | { kind: 'settle'; chunk: number } | { kind: 'pay'; account: number };

const step = (accounts: number): fc.Arbitrary<Step> =>
  fc.oneof(
    fc.record({ kind: fc.constant('collect' as const), account: fc.nat({ max: accounts - 1 }), minor: fc.bigInt({ min: 1n, max: 100_000_000n }) }),
    fc.record({ kind: fc.constant('settle' as const), chunk: fc.integer({ min: 1, max: 4 }) }),
    fc.record({ kind: fc.constant('pay' as const), account: fc.nat({ max: accounts - 1 }) }),
  );

describe('money conservation (property)', () => {
  it('keeps every collected cent: receivable balances plus current balances equal the sum of collections', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step(3), { minLength: 1, maxLength: 25 }), async (steps) => {
        const w = inMemoryApplication();
        const { customer } = await w.app.customers.create.execute({ name: 'Conservation' });
        const accounts: number[] = [];
        for (let i = 0; i < 3; i++) {
          const { client } = await w.uow.run((tx) =>
            tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails({ taxId: validTaxId('30', 11000000 + i * 10) }), w.clock.now())),
          );
          const opened = await w.app.receivableAccounts.open.execute({ customerId: customer.id, clientId: client.id });
          await w.uow.run(async (tx) => {
            const account = (await tx.receivableAccounts.getForUpdate(opened.id)) as ReceivableAccount;
            await tx.receivableAccounts.update(account.assignCvu(`00000449${String(opened.id).padStart(14, '0')}`, `prop.${opened.id}`, w.clock.now()));
          });
          accounts.push(opened.id);
        }
        let collected = 0n;
        for (const s of steps) {
          w.clock.advance(1000);
          if (s.kind === 'collect') {
            await w.app.collections.record.execute({
              customerId: customer.id,
              receivableAccountId: accounts[s.account],
              amount: Money.parse(formatMinor(s.minor)),
              counterParty: { name: 'P', taxId: '20123456786' },
            });
            collected += s.minor;
          } else if (s.kind === 'pay') {
            const r = await w.app.receivables.issue.execute({
              customerId: customer.id,
              receivableAccountId: accounts[s.account],
              amount: Money.parse(1),
              currencyCode: 'ARS',
              receivableType: 'INVOICE',
            });
            await w.app.receivables.changeStatus.execute({ customerId: customer.id, receivableId: r.id, status: 'PAID' });
          } else {
            await w.app.settlements.run.execute({ chunkSize: s.chunk });
            for (const id of accounts) expect(w.store.committed.balances.get(id) ?? 0n).toBe(0n);
          }
        }
        const t = w.store.committed;
        const held = [...t.balances.values()].reduce((sum, b) => sum + b, 0n);
        expect(held).toBe(collected);
        expect(await w.app.ledger.verify.execute()).toEqual([]);
        for (const settlement of t.settlements.values()) {
          const pair = t.movements.filter((m) => m.settlementId === settlement.id);
          expect(pair).toHaveLength(2);
          expect(pair.reduce((sum, m) => sum + signedAmount(m), 0n)).toBe(0n);
        }
        const settledAccounts = [...t.receivables.values()].filter((r) => r.status === 'SETTLED').map((r) => r.receivableAccountId);
        for (const id of settledAccounts) expect([...t.settlements.values()].some((s) => s.receivableAccountId === id)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});
