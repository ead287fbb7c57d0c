import {
  DEFAULT_CUSTOMER_SETTINGS,
  DomainError,
  IdempotentExecution,
  type IdempotencyRepository,
  type StoredResponse,
  type TransactionScope,
  type UnitOfWork,
} from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { itOnRealServer, openTestDatabase, waitForLockWaiters, type TestDatabase } from '../testing';

const clock = { now: () => new Date() };
const refused: StoredResponse = { status: 409, body: '{"code":"receivable-account-already-exists"}' };
const keptRefusal = (error: unknown) => (error instanceof DomainError && error.code === 'receivable-account-already-exists' ? refused : undefined);

/** A promise and the function that settles it. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * The key's unit of work as the first request's execution sees it, holding that request once its refusal is decided
 * (its writes undone) before it stores the refusal under the key. Only this execution is held, so the duplicate
 * runs freely in the moment a window would be open.
 */
function heldAfterRefusal(
  uow: UnitOfWork<TransactionScope>,
  gate: Promise<void>,
  refusalDecided: () => boolean,
): UnitOfWork<Pick<TransactionScope, 'idempotency'>> {
  const idempotency = (tx: TransactionScope): IdempotencyRepository => ({
    find: (...args) => tx.idempotency.find(...args),
    claim: (request) => tx.idempotency.claim(request),
    complete: async (...args) => {
      if (refusalDecided()) await gate;
      return tx.idempotency.complete(...args);
    },
    completeHeld: (...args) => tx.idempotency.completeHeld(...args),
    extendHeld: (...args) => tx.idempotency.extendHeld(...args),
    releaseHeld: (hold) => tx.idempotency.releaseHeld(hold),
    purgeExpired: (now, limit) => tx.idempotency.purgeExpired(now, limit),
  });
  const held: UnitOfWork<Pick<TransactionScope, 'idempotency'>> = {
    run: (work) => uow.run((tx) => work({ idempotency: idempotency(tx) })),
    isolated: (work) => uow.isolated(work),
    inTransaction: () => uow.inTransaction(),
    begin: (work) => work(held),
    afterCommit: (effect) => uow.afterCommit(effect),
  };
  return held;
}

/**
 * The execution as the application builds it, handing the operation the unit of work bound to the key's
 * transaction; `keyUnitOfWork` gives the one the key itself is claimed and completed through.
 */
function executionOn(uow: KnexUnitOfWork, keyUnitOfWork = (bound: UnitOfWork<TransactionScope>): UnitOfWork<Pick<TransactionScope, 'idempotency'>> => bound) {
  return new IdempotentExecution<UnitOfWork<TransactionScope>>(uow, clock, (work) => uow.begin((bound) => work(bound, keyUnitOfWork(bound))));
}

describe(`a refusal kept under an Idempotency-Key (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let credentialId: number;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
    uow = new KnexUnitOfWork(db.knex);
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'refusals', creationDate: clock.now() }));
    const { credential } = await uow.run((tx) =>
      tx.credentials.insertIfAbsent({
        customerId: customer.id,
        clientId: 'refusals',
        secretHash: 'x',
        scopes: [],
        status: 'ACTIVE',
        creationDate: clock.now(),
      }),
    );
    credentialId = credential.id;
  });
  afterAll(async () => db.close());

  itOnRealServer('a duplicate waiting on the key needs a second connection; PGlite has one')(
    'is stored in the transaction holding the key: a duplicate arriving after the rollback replays it and the operation never runs again',
    async () => {
      let runs = 0;
      /** Writes a customer (its side effect), then refuses. */
      const operation = async (bound: UnitOfWork<TransactionScope>): Promise<StoredResponse> => {
        runs++;
        await bound.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'side effect', creationDate: clock.now() }));
        throw new DomainError('receivable-account-already-exists', 'refused');
      };
      const request = { credentialId, key: 'refused-once', fingerprint: 'fp' };
      const gate = latch();
      const decided = latch();
      let refusalDecided = false;
      const first = executionOn(uow, (bound) => heldAfterRefusal(bound, gate.promise, () => refusalDecided)).run(request, operation, (error) => {
        refusalDecided = true;
        decided.open();
        return keptRefusal(error);
      });

      await decided.promise;
      const duplicate = executionOn(uow).run(request, operation, keptRefusal);
      // Either the duplicate waits on the key (no window), or it went through the window and ran to its end.
      await Promise.race([waitForLockWaiters(db.knex, 1), duplicate.catch(() => undefined)]);
      gate.open();

      expect(await first).toMatchObject({ response: refused, replayed: false });
      expect(await duplicate).toMatchObject({ response: refused, replayed: true });
      expect(runs).toBe(1);
      expect(await db.knex('customers').where({ name: 'side effect' })).toEqual([]);
      const stored = await db.knex('idempotency_keys').where({ credential_id: credentialId, key: request.key }).first('response_status');
      expect(stored).toEqual({ response_status: 409 });
    },
  );

  it('undoes the operation but keeps the claim, so nothing of a refused operation stays', async () => {
    const request = { credentialId, key: 'refused-alone', fingerprint: 'fp' };
    const operation = async (bound: UnitOfWork<TransactionScope>): Promise<StoredResponse> => {
      await bound.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'undone', creationDate: clock.now() }));
      throw new DomainError('receivable-account-already-exists', 'refused');
    };
    const execution = executionOn(uow);
    expect(await execution.run(request, operation, keptRefusal)).toMatchObject({ response: refused, replayed: false });
    expect(await execution.run(request, operation, keptRefusal)).toMatchObject({ response: refused, replayed: true });
    expect(await db.knex('customers').where({ name: 'undone' })).toEqual([]);
  });
});
