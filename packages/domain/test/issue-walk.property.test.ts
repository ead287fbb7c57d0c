import fc from 'fast-check';
import { DEFAULT_CUSTOMER_SETTINGS, DomainError, Money, RECEIVABLE_TYPES, type IssueReceivableInput, type Receivable } from '../src';
import { aClientDetails, anAssociateDetails, inMemoryApplication, validTaxId } from '../testing';

/**
 * Our customer with an account free of associates (bindings happen), one bound, one DISABLED, active and
 * DISABLED associates, a parent invoice and a route settlement; another customer whose resources are 403s.
 * Built the same way each time, so two worlds hold the same ids.
 */
async function world() {
  const w = inMemoryApplication();
  const { app, clock } = w;
  const customer = async (name: string) =>
    (await w.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: clock.now() }))).customer.id;
  const ours = await customer('ours');
  const theirs = await customer('theirs');
  const client = async (customerId: number, n: number) =>
    (await app.clients.register.execute({ customerId, details: aClientDetails({ taxId: validTaxId('30', 60000000 + n * 10) }) })).client.id;
  const associate = async (customerId: number, n: number) => {
    const body = 30000000 + n * 10;
    const details = anAssociateDetails({ taxId: validTaxId('20', body), documentNumber: String(body) });
    return (await app.associates.register.execute({ customerId, details })).associate.id;
  };
  const clients = [await client(ours, 1), await client(ours, 2), await client(ours, 3), await client(theirs, 4)];
  const associates = [await associate(ours, 1), await associate(ours, 2), await associate(ours, 3), await associate(theirs, 4)];
  await app.associates.disable.execute({ customerId: ours, associateId: associates[2] });
  const open = async (customerId: number, clientId: number, associateId?: number) =>
    (await app.receivableAccounts.open.execute({ customerId, clientId, associateId })).id;
  const accounts = [await open(ours, clients[0]), await open(ours, clients[1], associates[0]), await open(ours, clients[2]), await open(theirs, clients[3])];
  await app.receivableAccounts.provision.execute({ limit: 10 });
  await app.receivableAccounts.disable.execute({ customerId: ours, accountId: accounts[2] });
  const invoice = async (customerId: number, receivableAccountId: number) =>
    (await app.receivables.issue.execute({ customerId, receivableAccountId, amount: Money.parse('100.00'), currencyCode: 'ARS', receivableType: 'INVOICE' }))
      .id;
  const parents = [await invoice(ours, accounts[0]), await invoice(ours, accounts[1]), await invoice(theirs, accounts[3])];
  await app.routeSettlements.register.execute({ customerId: ours, routeCode: 'R1', date: '2026-03-01', associateId: associates[0] });
  return { ...w, ours, ids: { clients, associates, accounts, parents } };
}

type Ids = Awaited<ReturnType<typeof world>>['ids'];
const UNKNOWN = 999_999;

/** Mostly what issues (so that items meet what earlier ones issued), now and then what is refused. */
const mostly = <T>(issuing: readonly T[], refused: readonly T[]) =>
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...issuing) }, { weight: 1, arbitrary: fc.constantFrom(...refused) });

/**
 * An item on one of our two usable accounts, mostly naming what goes with that account (its client, an associate
 * it has or may bind, its parent invoice), now and then what is refused: absent, ours but another's, foreign,
 * unknown, DISABLED.
 */
const itemOf = (customerId: number, { accounts, clients, associates, parents }: Ids): fc.Arbitrary<IssueReceivableInput> =>
  fc.constantFrom(0, 1).chain((slot) =>
    fc.record({
      customerId: fc.constant(customerId),
      receivableAccountId: mostly([accounts[slot]], [accounts[2], accounts[3], UNKNOWN]),
      // Two children of one parent can exceed its 100.00, one cannot.
      amount: fc.bigInt({ min: 1_000n, max: 8_000n }).map((minor) => Money.ofMinor(minor)),
      currencyCode: mostly(['ARS'], ['USD']),
      receivableType: fc.constantFrom(...RECEIVABLE_TYPES),
      clientId: mostly([undefined, null, clients[slot]], [clients[1 - slot], clients[2], clients[3], UNKNOWN]),
      // The first account binds the first associate named; the second has the first already.
      associateId: mostly([undefined, null, associates[0], ...(slot === 0 ? [associates[1]] : [])], [associates[2], associates[3], UNKNOWN]),
      parentReceivableId: mostly([parents[slot], parents[slot], undefined], [parents[1 - slot], parents[2], UNKNOWN]),
      legalNumber: fc.constantFrom(undefined, undefined, 'A-0001', 'A-0002'),
      externalRoutingCode: fc.constantFrom(undefined, 'R1', 'R2'),
    }),
  );

/** What an item's answer says, less what differs by design: ids and dates. */
const answerOf = (receivable: Receivable) => {
  const { id: _id, creationDate: _c, modificationDate: _m, version: _v, ...rest } = receivable.toSnapshot();
  return rest;
};
const refusalOf = (error: unknown) => {
  if (!(error instanceof DomainError)) throw error;
  return { refused: error.code };
};

describe('issuing receivables one by one and in a batch (property)', () => {
  it('answers each item of a batch as the same item posted alone, in order, and leaves the same accounts', async () => {
    const { ours, ids } = await world();
    await fc.assert(
      fc.asyncProperty(fc.array(itemOf(ours, ids), { minLength: 1, maxLength: 8 }), async (items) => {
        const alone = await world();
        const answeredAlone = [];
        for (const item of items) answeredAlone.push(await alone.app.receivables.issue.execute(item).then(answerOf, refusalOf));
        const batched = await world();
        const outcomes = await batched.app.receivables.issueBatch.execute({ items });
        expect(outcomes.map((outcome) => ('error' in outcome ? refusalOf(outcome.error) : answerOf(outcome.value)))).toEqual(answeredAlone);
        const owners = async (w: typeof alone) =>
          Promise.all(
            ids.accounts.slice(0, 3).map(async (accountId) => (await w.app.receivableAccounts.get.execute({ customerId: ours, accountId })).account.owner),
          );
        expect(await owners(batched)).toEqual(await owners(alone));
      }),
      { numRuns: 120 },
    );
  });
});
