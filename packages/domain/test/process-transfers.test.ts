import { composeCvu, createApplication, DEFAULT_PAYOUT_POLICY, Money, TransactionConflictError, type DestinationInput, type PayoutPolicy } from '../src';
import { A_CBU, inMemoryPorts, validTaxId } from '../testing';

const PROVEEDOR = { name: 'Proveedor SA', taxId: validTaxId('30', 71234568) };
const LEASE_MS = DEFAULT_PAYOUT_POLICY.leaseMs;

async function setUp(maxAttempts = 3, policy: Partial<PayoutPolicy> = {}) {
  const ports = inMemoryPorts();
  const app = createApplication({ ...ports, payoutPolicy: { ...DEFAULT_PAYOUT_POLICY, maxAttempts, ...policy } });
  const { customer } = await app.customers.create.execute({ name: 'Pagadora SA' });
  const credentialId = [...ports.store.committed.credentials.values()].find((c) => c.customerId === customer.id)!.id;
  const [main, sub] = [...ports.store.committed.currentAccounts.values()].filter((a) => a.customerId === customer.id);
  const fund = (accountId: number, minor: bigint) =>
    ports.uow.run((tx) =>
      tx.ledger.append({
        customerId: customer.id,
        accountId,
        accountKind: 'CURRENT',
        movementType: 'CREDIT',
        operationType: 'SETTLEMENT',
        subtype: 'SETTLEMENT_IN',
        amountMinor: minor,
        currencyCode: 'ARS',
        counterParty: null,
        settlementId: null,
        providerReference: null,
        transferId: null,
        movementDate: ports.clock.now(),
      }),
    );
  const pay = async (amountMinor: bigint, destination: DestinationInput = { cbuCvu: A_CBU, counterParty: PROVEEDOR }, sourceAccountId = main.id) =>
    (
      await app.transfers.create.execute({
        customerId: customer.id,
        credentialId,
        type: destination.accountId ? 'INTERNAL_TRANSFER' : 'OUTGOING_TRANSFER',
        sourceAccountId,
        amount: Money.ofMinor(amountMinor),
        currencyCode: 'ARS',
        destination,
      })
    ).id;
  const balance = (accountId: number) => ports.store.committed.balances.get(accountId) ?? 0n;
  const transfer = (id: number) => ports.store.committed.transfers.get(id)!;
  const sides = (id: number) => ports.store.committed.movements.filter((m) => m.transferId === id).map((m) => m.subtype);
  /** Another customer's current account takes `cvu`: a destination no transfer may be paid out to any more. */
  const hostHere = async (cvu: string) => {
    const other = await app.customers.create.execute({ name: 'Otra SA' });
    const account = [...ports.store.committed.currentAccounts.values()].find((a) => a.customerId === other.customer.id)!;
    ports.store.committed.currentAccounts.set(account.id, { ...account, cvu });
  };
  /** From now on each reading of the clock moves it by `ms` first (forwards, or back when negative). */
  const moveOnEachRead = (ms: number) => {
    const read = ports.clock.now.bind(ports.clock);
    ports.clock.now = () => {
      ports.clock.advance(ms);
      return read();
    };
  };
  return { ...ports, app, main, sub, fund, pay, balance, transfer, sides, hostHere, moveOnEachRead, run: () => app.transfers.process.execute() };
}

const ELSEWHERE = composeCvu('0170099', 22222222222n);

describe('the transfer worker', () => {
  it('pays in queue order from what the balance holds: an internal credit funds what follows, the rest FAILS unpaid', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 1_000n);
    const toSub = await w.pay(800n, { accountId: w.sub.id });
    const fromSub = await w.pay(500n, undefined, w.sub.id);
    const tooMuch = await w.pay(300n);
    const fits = await w.pay(200n);
    expect(await w.run()).toEqual({ completed: 3, failed: 1, inProgress: 0 });
    expect([toSub, fromSub, tooMuch, fits].map((id) => [w.transfer(id).status, w.transfer(id).failureReason])).toEqual([
      ['COMPLETED', null],
      ['COMPLETED', null],
      ['FAILED', 'insufficient-balance'],
      ['COMPLETED', null],
    ]);
    expect([w.balance(w.main.id), w.balance(w.sub.id)]).toEqual([0n, 300n]);
    const events = w.store.committed.outbox.filter((e) => e.type.startsWith('transfer.'));
    expect(events.map((e) => [e.type, (e.data.transfer as { id: number }).id]).sort()).toEqual(
      [
        ['transfer.completed', toSub],
        ['transfer.completed', fromSub],
        ['transfer.completed', fits],
        ['transfer.failed', tooMuch],
      ].sort(),
    );
  });

  it('records a payout whose answer never came from the provider’s record once the lease ends, without sending it again', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 500n);
    w.bank.scriptPayout(A_CBU, 'late');
    const id = await w.pay(500n);
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 1 });
    expect(w.transfer(id).status).toBe('IN_PROGRESS');
    w.clock.advance(1);
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(w.bank.payouts.size).toBe(1);
    expect(w.sides(id)).toEqual(['TRANSFER_OUT']);
  });

  it('sends again, under the same id, a payout the provider never took, and gives it up only on the provider’s word after the last attempt', async () => {
    const w = await setUp(3);
    await w.fund(w.main.id, 500n);
    w.bank.scriptPayout(A_CBU, 'down', 'down', 'down', 'down');
    const id = await w.pay(500n);
    for (let pass = 1; pass <= 3; pass++) {
      expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 1 });
      expect(w.transfer(id).processing.attempts).toBe(pass);
      w.clock.advance(1);
    }
    expect(await w.run()).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(w.transfer(id)).toMatchObject({ status: 'FAILED', failureReason: 'provider-unavailable' });
    expect(w.sides(id)).toEqual(['TRANSFER_OUT', 'TRANSFER_REVERSAL']);
    expect(w.balance(w.main.id)).toBe(500n);
    expect(w.bank.payouts.size).toBe(0);
  });

  it('tries each payout the provider never took once a pass, however many fill a chunk: what a pass gives back waits for the next', async () => {
    const w = await setUp(3, { chunkSize: 2 });
    await w.fund(w.main.id, 1_000n);
    w.bank.scriptPayout(A_CBU, ...Array<'down'>(20).fill('down'));
    // Time passes as the pass works, as it does outside tests: a lease given back ends after the pass began.
    w.moveOnEachRead(1);
    const ids = [await w.pay(500n), await w.pay(500n)];
    for (let pass = 1; pass <= 3; pass++) {
      expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 2 });
      expect(ids.map((id) => w.transfer(id).processing.attempts)).toEqual([pass, pass]);
      w.clock.advance(1);
    }
    expect(w.bank.payouts.size).toBe(0);
  });

  it('tries each payout once a pass even when the clock steps back during it', async () => {
    const w = await setUp(3, { chunkSize: 2 });
    await w.fund(w.main.id, 1_000n);
    w.bank.scriptPayout(A_CBU, ...Array<'down'>(20).fill('down'));
    const ids = [await w.pay(500n), await w.pay(500n)];
    await w.run();
    w.clock.advance(1_000);
    // From here on every reading of the clock is a millisecond earlier than the one before.
    w.moveOnEachRead(-1);
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 2 });
    expect(ids.map((id) => w.transfer(id).processing.attempts)).toEqual([2, 2]);
  });

  it('leaves a transfer a stopped worker debited alone until its lease ends, then pays it once', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 500n);
    const id = await w.pay(500n);
    // A worker that debited it and died before sending the payout.
    const lease = { by: 'dead', until: new Date(w.clock.now().getTime() + LEASE_MS) };
    await w.uow.run(async (tx) => {
      await tx.ledger.appendAll([
        { ...w.store.committed.movements[0], subtype: 'TRANSFER_OUT', movementType: 'DEBIT', operationType: 'TRANSFER', transferId: id, amountMinor: 500n },
      ]);
      await tx.transfers.updateAll([(await tx.transfers.getForUpdate(id))!.start('2026-01-15', w.clock.now(), lease)]);
    });
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 0 });
    expect(w.bank.payouts.size).toBe(0);
    w.clock.advance(LEASE_MS + 1);
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(w.bank.payouts.size).toBe(1);
    expect(w.balance(w.main.id)).toBe(0n);
  });

  it('fails a transfer from an account that is no longer ACTIVE, moving nothing', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 500n);
    const id = await w.pay(100n);
    w.store.committed.currentAccounts.set(w.main.id, { ...w.main, status: 'DISABLED' });
    expect(await w.run()).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(w.transfer(id)).toMatchObject({ status: 'FAILED', failureReason: 'source-account-not-active' });
    expect(w.sides(id)).toEqual([]);
  });

  it('resolves an alias-only destination (as an embedder may store one) before the debit: one no account has FAILS, a provider down leaves it PENDING', async () => {
    const w = await setUp(3);
    await w.fund(w.main.id, 300n);
    w.bank.scriptAlias('pago.norte', { alias: 'pago.norte', cbuCvu: A_CBU, holderName: null, holderTaxId: null, entity: 'Banco' });
    w.bank.scriptAlias('pago.caido', 'down');
    const byAlias = (alias: string) => w.pay(100n, { alias, counterParty: PROVEEDOR });
    const [found, unknown, down] = [await byAlias('pago.norte'), await byAlias('pago.nadie'), await byAlias('pago.caido')];
    expect(await w.run()).toEqual({ completed: 1, failed: 1, inProgress: 0 });
    expect(w.transfer(found)).toMatchObject({ status: 'COMPLETED', destination: { alias: 'pago.norte', cbuCvu: A_CBU } });
    expect(w.transfer(unknown)).toMatchObject({ status: 'FAILED', failureReason: 'destination-not-found' });
    expect(w.transfer(down)).toMatchObject({ status: 'PENDING', destination: { cbuCvu: null } });
    expect([w.sides(unknown), w.sides(down), w.balance(w.main.id)]).toEqual([[], [], 200n]);
    // A provider that never answers for it: FAILED on the third pass, unpaid, so it cannot hold the queue.
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 0 });
    expect(await w.run()).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(w.transfer(down)).toMatchObject({ status: 'FAILED', failureReason: 'provider-unavailable' });
    expect([w.sides(down), w.balance(w.main.id)]).toEqual([[], 200n]);
  });

  it('resolves every due alias in one pass, chunk after chunk, each once: one the provider does not answer waits for the next pass', async () => {
    const w = await setUp(3, { chunkSize: 2 });
    await w.fund(w.main.id, 500n);
    w.bank.scriptAlias('pago.norte', { alias: 'pago.norte', cbuCvu: A_CBU, holderName: null, holderTaxId: null, entity: 'Banco' });
    w.bank.scriptAlias('pago.caido', 'down');
    const byAlias = (alias: string) => w.pay(100n, { alias, counterParty: PROVEEDOR });
    // Five in the queue, the unanswered one first: two chunks of two and one of one.
    const down = await byAlias('pago.caido');
    const found = [];
    for (let n = 0; n < 4; n++) found.push(await byAlias('pago.norte'));
    expect(await w.run()).toEqual({ completed: 4, failed: 0, inProgress: 0 });
    expect(found.map((id) => w.transfer(id).status)).toEqual(Array(4).fill('COMPLETED'));
    expect(w.transfer(down)).toMatchObject({ status: 'PENDING', processing: { attempts: 1 } });
  });

  it('stops resolving aliases at a chunk the provider left wholly unanswered, and pays what names its CBU/CVU all the same', async () => {
    const w = await setUp(3, { chunkSize: 2 });
    await w.fund(w.main.id, 500n);
    w.bank.scriptAlias('pago.caido', 'down');
    const down = [];
    for (let n = 0; n < 4; n++) down.push(await w.pay(100n, { alias: 'pago.caido', counterParty: PROVEEDOR }));
    const named = await w.pay(100n);
    const resolves = jest.spyOn(w.bank, 'resolveAlias');
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(resolves).toHaveBeenCalledTimes(2);
    expect(w.transfer(named).status).toBe('COMPLETED');
    expect(down.map((id) => w.transfer(id).processing.attempts)).toEqual([1, 1, 0, 0]);
  });

  it("resolves aliases for the run's time and leaves the rest to the next run", async () => {
    const w = await setUp(3, { chunkSize: 2, aliasWalkMs: 0 });
    await w.fund(w.main.id, 500n);
    w.bank.scriptAlias('pago.norte', { alias: 'pago.norte', cbuCvu: A_CBU, holderName: null, holderTaxId: null, entity: 'Banco' });
    for (let n = 0; n < 5; n++) await w.pay(100n, { alias: 'pago.norte', counterParty: PROVEEDOR });
    // A chunk a run, once the time is spent: the chunk started is finished.
    expect([await w.run(), await w.run(), await w.run()]).toEqual([
      { completed: 2, failed: 0, inProgress: 0 },
      { completed: 2, failed: 0, inProgress: 0 },
      { completed: 1, failed: 0, inProgress: 0 },
    ]);
  });

  it('pays a transfer whose alias the provider answered late with every payout attempt of its own', async () => {
    const w = await setUp(3);
    await w.fund(w.main.id, 100n);
    w.bank.scriptAlias('pago.lento', 'down');
    const id = await w.pay(100n, { alias: 'pago.lento', counterParty: PROVEEDOR });
    await w.run();
    await w.run();
    w.bank.scriptAlias('pago.lento', { alias: 'pago.lento', cbuCvu: A_CBU, holderName: null, holderTaxId: null, entity: 'Banco' });
    w.bank.scriptPayout(A_CBU, 'down', 'down');
    // Resolved, debited and sent on the first of these passes; the provider takes the third send.
    for (let pass = 1; pass <= 2; pass++) {
      expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 1 });
      w.clock.advance(1);
    }
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(w.transfer(id).status).toBe('COMPLETED');
  });

  it("resolves an alias of this service's accounts here: one the caller's current account took after the transfer was made FAILS it unpaid", async () => {
    const w = await setUp();
    await w.fund(w.main.id, 300n);
    await expect(w.pay(100n, { alias: w.sub.alias.toUpperCase(), counterParty: PROVEEDOR })).rejects.toMatchObject({ code: 'validation' });
    const later = await w.pay(100n, { alias: 'cuenta.despues', counterParty: PROVEEDOR });
    w.store.committed.currentAccounts.set(w.sub.id, { ...w.sub, alias: 'Cuenta.Despues' });
    expect(await w.run()).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(w.transfer(later).failureReason).toMatch(/^destination-not-payable: .*current account/);
    expect([w.sides(later), w.balance(w.main.id), w.bank.payouts.size]).toEqual([[], 300n, 0]);
  });

  it('runs a chunk again that storage undid as a deadlock’s victim, paying each transfer once', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 1_000n);
    const [internal, outgoing] = [await w.pay(300n, { accountId: w.sub.id }), await w.pay(200n)];
    // The first transaction that takes due transfers is undone after its writes, as PostgreSQL undoes a deadlock's victim.
    let undone = 0;
    const run = w.uow.run.bind(w.uow);
    jest.spyOn(w.uow, 'run').mockImplementation((work) =>
      run(async (tx) => {
        const transfers = tx.transfers as { lockDue: typeof tx.transfers.lockDue };
        const lockDue = transfers.lockDue.bind(tx.transfers);
        let tookDue = false;
        transfers.lockDue = (pick) => {
          tookDue = true;
          return lockDue(pick);
        };
        const result = await work(tx);
        if (tookDue && undone++ === 0) throw new TransactionConflictError();
        return result;
      }),
    );
    expect(await w.run()).toEqual({ completed: 2, failed: 0, inProgress: 0 });
    expect([w.sides(internal), w.sides(outgoing)]).toEqual([['TRANSFER_OUT', 'TRANSFER_IN'], ['TRANSFER_OUT']]);
    expect([w.balance(w.main.id), w.balance(w.sub.id)]).toEqual([500n, 300n]);
    expect(undone).toBeGreaterThan(1);
  });

  it('fails at the debit a transfer whose CVU is now an account of this service, after the source check and before the balance one, leaving its money to the next', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 300n);
    await w.fund(w.sub.id, 100n);
    const fromDisabled = await w.pay(100n, undefined, w.sub.id);
    const [refused, beyondBalance, next] = [await w.pay(300n), await w.pay(5_000n), await w.pay(300n, { cbuCvu: ELSEWHERE, counterParty: PROVEEDOR })];
    w.store.committed.currentAccounts.set(w.sub.id, { ...w.sub, status: 'DISABLED' });
    await w.hostHere(A_CBU);
    expect(await w.run()).toEqual({ completed: 1, failed: 3, inProgress: 0 });
    expect(w.transfer(fromDisabled).failureReason).toBe('source-account-not-active');
    for (const id of [refused, beyondBalance]) {
      expect(w.transfer(id).failureReason).toBe(
        'destination-not-payable: destination names a current account of this service, which takes no payments from outside',
      );
    }
    expect(w.transfer(next).status).toBe('COMPLETED');
    expect([w.balance(w.main.id), w.balance(w.sub.id), [...w.bank.payouts.values()].map((p) => p.destination.cbuCvu)]).toEqual([0n, 100n, [ELSEWHERE]]);
  });

  it('does not send again a payout the provider never took once its destination refuses it, and FAILS it with its debit returned only after the last pass; one it took is followed', async () => {
    const w = await setUp(3);
    await w.fund(w.main.id, 500n);
    w.bank.scriptPayout(A_CBU, 'late', 'down');
    const [taken, neverTaken] = [await w.pay(200n), await w.pay(300n)];
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 2 });
    await w.hostHere(A_CBU);
    const sends = jest.spyOn(w.bank, 'sendPayout');
    w.clock.advance(1);
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(w.transfer(taken).status).toBe('COMPLETED');
    // A send of an earlier pass could still be on its way: it stays under the pass's lease, asked again after it,
    // until the last pass (the third) finds the provider still without it.
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 0 });
    w.clock.advance(LEASE_MS + 1);
    expect(await w.run()).toEqual({ completed: 0, failed: 0, inProgress: 0 });
    expect(w.transfer(neverTaken).status).toBe('IN_PROGRESS');
    w.clock.advance(LEASE_MS + 1);
    expect(await w.run()).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(w.transfer(neverTaken)).toMatchObject({
      status: 'FAILED',
      failureReason: expect.stringMatching(/^destination-not-payable: destination names a current account/),
    });
    expect([w.sides(taken), w.sides(neverTaken)]).toEqual([['TRANSFER_OUT'], ['TRANSFER_OUT', 'TRANSFER_REVERSAL']]);
    expect([w.balance(w.main.id), w.bank.payouts.size, sends.mock.calls.length]).toEqual([300n, 1, 0]);
  });

  it('starts no payout in the second half of its lease (a slow provider held the chunk), so each has ended before the lease, leaving it to the next pass, which pays it once', async () => {
    const w = await setUp();
    await w.fund(w.main.id, 500n);
    const [first, second] = [await w.pay(200n), await w.pay(300n)];
    const send = w.bank.sendPayout.bind(w.bank);
    jest.spyOn(w.bank, 'sendPayout').mockImplementationOnce((request) => {
      w.clock.advance(LEASE_MS / 2);
      return send(request);
    });
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 1 });
    expect([w.transfer(first).status, w.transfer(second).status, w.bank.payouts.size]).toEqual(['COMPLETED', 'IN_PROGRESS', 1]);
    w.clock.advance(1);
    expect(await w.run()).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect([w.bank.payouts.size, w.balance(w.main.id)]).toEqual([2, 0n]);
  });
});
