import type { Knex } from 'knex';
import pg from 'pg';
import { TransactionConflictError, TransactionEndedError, type DomainEvent, type TransactionScope } from '@rcs/domain';
import { TransactionRolledBackError, UndoneByIsolatedWorkError, type BoundKnexUnitOfWork } from '../src/knex-unit-of-work';
import { itOnRealServer } from '../testing';
import { OUT_OF_RANGE, oneCustomerEvents } from './support/one-customer-events';

/**
 * Transactions and the isolated work in them (the savepoint each keyed request runs its operation in): what the
 * work did is kept or undone with it alone, nothing sent through a scope once it has ended runs in whatever
 * follows on its connection, a transaction the server rolled back is never reported committed, and one that
 * fails leaves the pool a working connection.
 */
describe(`transactions, and isolated work in them (${process.env.RCS_TEST_STORAGE})`, () => {
  const their = oneCustomerEvents('isolated work');
  const { event, stored } = their;

  /** Isolated work that keeps its scope for later, as work outliving its call would; it fails when `refuse`. */
  const capturing = (bound: BoundKnexUnitOfWork, refuse: boolean) => {
    let kept!: TransactionScope;
    const work = () =>
      bound.run(async (inner) => {
        kept = inner;
        await inner.outbox.record([event(2)]);
        if (refuse) throw new Error('refused');
      });
    return { work, scope: () => kept };
  };

  /** Isolated work that writes through the scope around it (`event`) and then fails, in a transaction that goes on. */
  const writingThroughEnclosingScopeDuringRefusedWork = (written: DomainEvent) =>
    their.uow.begin(async (bound) => {
      let outer!: TransactionScope;
      await bound.run(async (tx) => {
        outer = tx;
        await tx.outbox.record([event(1)]);
      });
      const refusing = async () => {
        await outer.outbox.record([written]);
        throw new Error('refused');
      };
      await expect(bound.isolated(refusing)).rejects.toThrow('refused');
      await bound.run((tx) => tx.outbox.record([event(3)]));
    });

  /**
   * Runs `work` while the transaction statement `sql` fails without being sent, then one transaction more: whether
   * the pool dropped the connection it had (Knex warns of it, silenced here) instead of handing it out again.
   */
  async function droppingOnFailureOf(sql: 'BEGIN' | 'ROLLBACK', work: () => Promise<unknown>): Promise<boolean> {
    const client = their.db.knex.client as { query(connection: unknown, sql: unknown): Promise<unknown> };
    const query = client.query.bind(client);
    const sending = jest
      .spyOn(client, 'query')
      .mockImplementation((connection, sent) => (sent === sql ? Promise.reject(new Error(`${sql} failed`)) : query(connection, sent)));
    const warning = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await work();
    } finally {
      sending.mockRestore();
    }
    try {
      await their.uow.run((tx) => tx.outbox.record([event(2)]));
      return warning.mock.calls.some(([message]) => String(message).includes(`${sql} failed`));
    } finally {
      warning.mockRestore();
    }
  }

  it.each([
    ['kept', false],
    ['undone', true],
  ])('isolated work, once %s, refuses what is sent through its scope, and the transaction commits without it', async (_ending, refuse) => {
    await their.uow.begin(async (bound) => {
      await bound.run((tx) => tx.outbox.record([event(1)]));
      const isolated = capturing(bound, refuse);
      const ending = bound.isolated(isolated.work);
      await (refuse ? expect(ending).rejects.toThrow('refused') : ending);
      const late = isolated.scope();
      await expect(late.outbox.record([event(3)])).rejects.toThrow(TransactionEndedError);
      await expect(late.customers.get(their.customerId)).rejects.toThrow(TransactionEndedError);
      await bound.run((tx) => tx.outbox.record([event(4)]));
    });
    expect(await stored()).toEqual(refuse ? [1, 4] : [1, 2, 4]);
  });

  it('isolated work nests, each level kept or undone on its own', async () => {
    await their.uow.begin(async (bound) => {
      await bound.isolated(async () => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        await expect(bound.isolated(capturing(bound, true).work)).rejects.toThrow('refused');
        await bound.isolated(capturing(bound, false).work);
      });
      await bound.isolated(() => bound.run((tx) => tx.outbox.record([event(3)])));
    });
    expect(await stored()).toEqual([1, 2, 3]);
  });

  it('isolated work that cannot be undone fails the whole transaction, keeping nothing of it', async () => {
    const failure = await their.uow
      .begin(async (bound) => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        const gone = () =>
          bound.run(async () => {
            // Its savepoint (named by depth, the first) gone, ROLLBACK TO fails: the work cannot be undone apart.
            await bound.executor().raw('RELEASE SAVEPOINT isolated_1');
            throw new Error('refused');
          });
        await expect(bound.isolated(gone)).rejects.toThrow('refused');
      })
      .catch((error: Error) => error);
    // Reported on a pipelining connection, or as the cause of the rollback-only transaction where each is waited for.
    expect(`${String(failure)} ${String((failure as Error).cause)}`).toMatch(/savepoint "isolated_1" does not exist/);
    expect(await stored()).toEqual([]);
  });

  it('a failure that work caught fails the transaction: the COMMIT the server answers ROLLBACK is reported as a failure', async () => {
    await expect(
      their.uow.begin(async (bound) => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        await expect(bound.executor().raw('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
      }),
    ).rejects.toThrow(expect.objectContaining({ constructor: TransactionRolledBackError, cause: expect.objectContaining({ code: '22012' }) }));
    expect(await stored()).toEqual([]);
  });

  const DEADLOCK = `DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$`;
  /** What work does once it has caught a deadlock, each failing or not with "current transaction is aborted". */
  const afterACaughtDeadlock: Array<[string, (bound: BoundKnexUnitOfWork) => Promise<unknown>]> = [
    ['catches the refusal of a statement after it', (bound) => expect(bound.executor().raw('SELECT 1')).rejects.toThrow(/current transaction is aborted/)],
    ['writes without waiting, refused at the end', (bound) => bound.run((tx) => tx.outbox.record([event(2)]))],
    ['lets the refusal of a read after it through', (bound) => bound.run((tx) => tx.customers.get(their.customerId))],
    ['catches the failure of isolated work after it', (bound) => bound.isolated(() => bound.run((tx) => tx.outbox.record([event(2)]))).catch(() => undefined)],
  ];

  it.each(afterACaughtDeadlock)("a deadlock that work caught is the caller's to retry (a conflict), not a fault, when the work then %s", async (_, then) => {
    await expect(
      their.uow.begin(async (bound) => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        await expect(bound.executor().raw(DEADLOCK)).rejects.toThrow(/deadlock detected/);
        await then(bound);
      }),
    ).rejects.toThrow(TransactionConflictError);
    expect(await stored()).toEqual([]);
  });

  it('a transaction, once ended, refuses what is sent through its scope, and the next transaction on the connection runs without it', async () => {
    let late!: TransactionScope;
    await their.uow.run(async (tx) => {
      late = tx;
      await tx.outbox.record([event(1)]);
    });
    await their.uow.begin(async (bound) => {
      await expect(late.outbox.record([event(2)])).rejects.toThrow(TransactionEndedError);
      await expect(late.customers.get(their.customerId)).rejects.toThrow(TransactionEndedError);
      await bound.run((tx) => tx.outbox.record([event(3)]));
    });
    expect(await stored()).toEqual([1, 3]);
  });

  /** Ends a server process from a session of its own, as an administrator or a failover would. */
  async function terminate(pid: number): Promise<void> {
    const admin = new pg.Client({ connectionString: their.db.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
  }

  itOnRealServer("PGlite's one session cannot be ended from another")(
    'a transaction whose connection dies fails, and the next one runs on a working connection',
    async () => {
      await expect(
        their.uow.begin(async (bound) => {
          await bound.run((tx) => tx.outbox.record([event(1)]));
          const { rows } = await bound.executor().raw<{ rows: Array<{ pid: number }> }>('SELECT pg_backend_pid() AS pid');
          await terminate(rows[0].pid);
          await bound.run((tx) => tx.customers.get(their.customerId));
        }),
      ).rejects.toThrow();
      await their.uow.run((tx) => tx.outbox.record([event(2)]));
      expect(await stored()).toEqual([2]);
    },
  );

  itOnRealServer('PGlite waits for each write: its failure is thrown to the work that sent it, which decides')(
    'a write of the transaction that failed unseen while isolated work ran fails the transaction, though that work was undone',
    async () => {
      await expect(writingThroughEnclosingScopeDuringRefusedWork(event(2, OUT_OF_RANGE))).rejects.toEqual(expect.objectContaining({ code: '22003' }));
      expect(await stored()).toEqual([]);
    },
  );

  it("the scopes of a transaction and of isolated work refuse Knex's own transactions, savepoints and destroy, which would end or nest behind the unit of work", async () => {
    await their.uow.begin(async (bound) => {
      const trx = bound.executor() as Knex.Transaction;
      expect(() => trx.transaction()).toThrow(/belong to the unit of work/);
      expect(() => (trx.client as { transaction(): unknown }).transaction()).toThrow(/belong to the unit of work/);
      expect(() => trx.destroy()).toThrow(/belong to the unit of work/);
      await bound.isolated(() => {
        const savepoint = bound.executor() as Knex.Transaction;
        expect(() => savepoint.commit()).toThrow(/belong to the unit of work/);
        expect(() => savepoint.transaction()).toThrow(/belong to the unit of work/);
        return Promise.resolve();
      });
      await bound.run((tx) => tx.outbox.record([event(1)]));
    });
    expect(await stored()).toEqual([1]);
  });

  it('a stream started through an ended scope is told it was refused, instead of being left waiting', async () => {
    let late!: Knex;
    await their.uow.begin((bound) => {
      late = bound.executor();
      return Promise.resolve();
    });
    const stream = late('outbox_events').select('id').stream();
    const failure = await new Promise((resolve) => stream.on('error', resolve));
    expect(failure).toBeInstanceOf(TransactionEndedError);
  });

  it('a transaction whose BEGIN failed is reported failed, its effects not run (on a pipelining connection what followed BEGIN ran on its own)', async () => {
    const effect = jest.fn();
    const dropped = await droppingOnFailureOf('BEGIN', () =>
      expect(
        their.uow.begin(async (bound) => {
          bound.afterCommit(effect);
          await bound.run((tx) => tx.outbox.record([event(1)]));
        }),
      ).rejects.toThrow('BEGIN failed'),
    );
    expect(effect).not.toHaveBeenCalled();
    // Where the failure was found after COMMIT (pipelining), the pool dropped the connection.
    expect(dropped).toBe(their.db.storage === 'postgres');
    expect(await stored()).toEqual(their.db.storage === 'postgres' ? [1, 2] : [2]);
  });

  it('a statement sent through an enclosing scope while isolated work ran, undone with that work, keeps the transaction from committing', async () => {
    await expect(writingThroughEnclosingScopeDuringRefusedWork(event(2))).rejects.toEqual(
      expect.objectContaining({ cause: expect.any(UndoneByIsolatedWorkError) }),
    );
    expect(await stored()).toEqual([]);
  });

  itOnRealServer("PGlite's connections share its one session: a dropped connection leaves its transaction open there")(
    'a transaction whose ROLLBACK failed leaves the pool without its connection, and nothing of it is kept',
    async () => {
      const dropped = await droppingOnFailureOf('ROLLBACK', () =>
        expect(
          their.uow.run(async (tx) => {
            await tx.outbox.record([event(1)]);
            throw new Error('refused');
          }),
        ).rejects.toThrow('refused'),
      );
      expect(dropped).toBe(true);
      expect(await stored()).toEqual([2]);
    },
  );
});
