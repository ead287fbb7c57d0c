import { DEFAULT_CUSTOMER_SETTINGS, DomainError, IDEMPOTENCY_TTL_MS, KEY_HOLD_MS, type HeldKeyOptions, type StoredResponse, type UseCases } from '../src';
import { aClientDetails, inMemoryApplication, validTaxId } from '../testing';

const created: StoredResponse = { status: 201, body: '{"id":1}', location: '/v1/things/1' };
const refused: StoredResponse = { status: 422, body: '{"code":"incomplete-branch"}' };

/**
 * An application on the in-memory fakes, and an operation that registers two clients through the use cases it is
 * handed (bound to the key's transaction) before it answers or fails.
 */
async function world() {
  const w = inMemoryApplication();
  const { customer } = await w.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'keys', creationDate: w.clock.now() }));
  let runs = 0;
  const operation =
    (fail?: Error) =>
    async (app: UseCases): Promise<StoredResponse> => {
      runs++;
      for (const n of [1, 2]) {
        await app.clients.register.execute({ customerId: customer.id, details: aClientDetails({ taxId: validTaxId('30', 60000000 + runs * 100 + n * 10) }) });
      }
      if (fail) throw fail;
      return created;
    };
  /** Keeps business refusals (a 422 here), as CONTRACT does; every other error keeps nothing. */
  const keptRefusal = (error: unknown) => (error instanceof DomainError && error.code === 'incomplete-branch' ? refused : undefined);
  const run = (work: (app: UseCases) => Promise<StoredResponse>, fingerprint = 'fp-1', keep = keptRefusal) =>
    w.app.idempotency.execution.run({ credentialId: 1, key: 'k', fingerprint }, work, keep);
  return { ...w, operation, run, runs: () => runs };
}

describe('idempotent execution', () => {
  it('runs the operation once and replays its stored answer for the same fingerprint', async () => {
    const w = await world();
    const first = await w.run(w.operation());
    const again = await w.run(w.operation());
    expect(first).toEqual({ response: created, replayed: false, expiresAt: new Date(w.clock.now().getTime() + IDEMPOTENCY_TTL_MS), kept: true });
    expect(again).toEqual({ ...first, replayed: true });
    expect(w.runs()).toBe(1);
    expect(w.store.committed.clients.size).toBe(2);
  });

  it('commits the key, the operation and the answer together', async () => {
    const w = await world();
    await w.run(w.operation());
    expect(w.store.committed.idempotency.get('1|k')?.response).toEqual(created);
    expect(w.store.committed.clients.size).toBe(2);
  });

  it('refuses another fingerprint under a used key with idempotency-key-reuse, even where every error would be kept', async () => {
    const w = await world();
    await w.run(w.operation());
    const keepAll = jest.fn(() => refused);
    await expect(w.run(w.operation(), 'fp-other', keepAll)).rejects.toMatchObject({ code: 'idempotency-key-reuse' });
    expect(w.runs()).toBe(1);
    // Only the operation's own errors are refusals to keep: a failed claim is answered as it is.
    expect(keepAll).not.toHaveBeenCalled();
  });

  it('rolls back what a refused operation wrote and keeps its refusal with the claim, in one transaction, for the repeat', async () => {
    const w = await world();
    const first = await w.run(w.operation(new DomainError('incomplete-branch', 'rule broken')));
    expect(first).toMatchObject({ response: refused, replayed: false });
    expect(w.store.committed.clients.size).toBe(0);
    expect(await w.run(w.operation())).toMatchObject({ response: refused, replayed: true });
    expect(w.runs()).toBe(1);
  });

  it('rethrows an error that keeps nothing, leaves none of its writes and releases the key for the retry', async () => {
    const w = await world();
    await expect(w.run(w.operation(new DomainError('validation', 'bad')))).rejects.toMatchObject({ code: 'validation' });
    await expect(w.run(w.operation(new Error('database went away')))).rejects.toThrow('database went away');
    expect(w.store.committed.clients.size).toBe(0);
    expect(w.store.committed.idempotency.size).toBe(0);
    expect(await w.run(w.operation())).toMatchObject({ response: created, replayed: false });
    expect(w.runs()).toBe(3);
  });

  it('runs the operation again once the key has expired', async () => {
    const w = await world();
    await w.run(w.operation());
    w.clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await w.run(w.operation())).toMatchObject({ replayed: false });
    expect(w.runs()).toBe(2);
  });
});

describe('idempotent execution of an operation that runs its own transactions (a held claim)', () => {
  /** An operation that registers a client through the free use cases, each in its own transaction, when `gate` opens. */
  async function heldWorld() {
    const w = await world();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const operation = (fail?: Error, wait?: Promise<void>) => async (): Promise<StoredResponse> => {
      runs++;
      await wait;
      await w.app.clients.register.execute({ customerId: 1, details: aClientDetails({ taxId: validTaxId('30', 61000000 + runs) }) });
      if (fail) throw fail;
      return created;
    };
    const keptRefusal = (error: unknown) => (error instanceof DomainError && error.code === 'incomplete-branch' ? refused : undefined);
    const faults: unknown[] = [];
    const runHeld = (work: () => Promise<StoredResponse>, fingerprint = 'fp-1', options: HeldKeyOptions = {}) =>
      w.app.idempotency.execution.runHeld({ credentialId: 1, key: 'k', fingerprint }, work, keptRefusal, { onKeyFault: (e) => faults.push(e), ...options });
    return { ...w, operation, runHeld, gate, release: () => release(), heldRuns: () => runs, faults };
  }

  it('runs the operation once, stores its answer after it, and replays that answer', async () => {
    const w = await heldWorld();
    const first = await w.runHeld(w.operation());
    expect(first).toEqual({ response: created, replayed: false, expiresAt: new Date(w.clock.now().getTime() + IDEMPOTENCY_TTL_MS), kept: true });
    expect(await w.runHeld(w.operation())).toEqual({ ...first, replayed: true });
    expect(w.heldRuns()).toBe(1);
    expect(w.store.committed.idempotency.get('1|k')?.response).toEqual(created);
  });

  it('makes a repeat sent while the first runs wait for its answer and replay it', async () => {
    const w = await heldWorld();
    const first = w.runHeld(w.operation(undefined, w.gate));
    const repeat = w.runHeld(w.operation());
    await new Promise((resolve) => setTimeout(resolve, 250));
    w.release();
    expect(await first).toMatchObject({ response: created, replayed: false });
    expect(await repeat).toMatchObject({ response: created, replayed: true });
    expect(w.heldRuns()).toBe(1);
    expect(w.store.committed.clients.size).toBe(1);
  });

  it('refuses a repeat as in progress once its wait runs out, and another body under the key as reuse at once', async () => {
    const w = await heldWorld();
    const first = w.runHeld(w.operation(undefined, w.gate));
    await expect(w.runHeld(w.operation(), 'fp-1', { waitMs: 200 })).rejects.toMatchObject({
      code: 'idempotency-request-in-progress',
      extras: { retryAfterSeconds: 1 },
    });
    await expect(w.runHeld(w.operation(), 'fp-other', { waitMs: 60_000 })).rejects.toMatchObject({ code: 'idempotency-key-reuse' });
    // An operation run inside a key's transaction does not wait on a held key either.
    await expect(w.run(w.operation())).rejects.toMatchObject({ code: 'idempotency-request-in-progress' });
    w.release();
    await first;
    expect(w.heldRuns()).toBe(1);
  });

  it('keeps a business refusal as the answer, and frees the key after an error that keeps nothing', async () => {
    const w = await heldWorld();
    await expect(w.runHeld(w.operation(new Error('provider went away')))).rejects.toThrow('provider went away');
    expect(w.store.committed.idempotency.size).toBe(0);
    expect(await w.runHeld(w.operation(new DomainError('incomplete-branch', 'rule broken')))).toMatchObject({ response: refused, replayed: false });
    expect(await w.runHeld(w.operation())).toMatchObject({ response: refused, replayed: true });
    expect(w.heldRuns()).toBe(2);
  });

  it('keeps the key of an operation that runs past its hold, renewing it, so a repeat then still waits', async () => {
    const w = await heldWorld();
    const first = w.runHeld(w.operation(undefined, w.gate), 'fp-1', { holdMs: 300 });
    await new Promise((resolve) => setImmediate(resolve));
    // The clock passes the first hold's end; the renewal every 100 ms moves it on from there.
    w.clock.advance(250);
    await new Promise((resolve) => setTimeout(resolve, 250));
    w.clock.advance(250);
    await expect(w.runHeld(w.operation(), 'fp-1', { waitMs: 0 })).rejects.toMatchObject({ code: 'idempotency-request-in-progress' });
    w.release();
    expect(await first).toMatchObject({ replayed: false, kept: true });
    expect(w.heldRuns()).toBe(1);
  });

  it('answers what the operation did when its answer cannot be stored, saying it was not kept, and reports the fault', async () => {
    const w = await heldWorld();
    const storing = jest.spyOn(w.uow, 'run');
    const outcome = w.runHeld(() => {
      // The operation is done; the next transaction, the one storing its answer, fails.
      storing.mockRejectedValueOnce(new Error('connection lost'));
      return Promise.resolve(created);
    });
    expect(await outcome).toMatchObject({ response: created, replayed: false, kept: false });
    expect(w.faults).toEqual([new Error('connection lost')]);
  });

  it('frees a key whose holder never answered (a crash) once the hold runs out', async () => {
    const w = await heldWorld();
    void w.runHeld(w.operation(undefined, w.gate));
    await new Promise((resolve) => setImmediate(resolve));
    w.clock.advance(KEY_HOLD_MS);
    expect(await w.runHeld(w.operation())).toMatchObject({ response: created, replayed: false });
    expect(w.heldRuns()).toBe(2);
  });
});
