import type { Socket } from 'node:net';
import { DEFAULT_CUSTOMER_SETTINGS, TransactionEndedError, type TransactionScope } from '@rcs/domain';
import { itOnRealServer } from '../testing';
import { OUT_OF_RANGE, oneCustomerEvents } from './support/one-customer-events';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * Events and stored responses are written without waiting for their answers (on a real server the statements
 * are pipelined behind the rest of the transaction, up to its COMMIT). Whatever the timing, a failed write must
 * still fail its transaction, undo everything of it and be the error reported.
 */
describe(`writes sent without waiting (${process.env.RCS_TEST_STORAGE})`, () => {
  const their = oneCustomerEvents('pipelining');
  const { event, stored } = their;
  const refused = expect.objectContaining({ code: '22003' });

  it('fail their transaction when they fail as its last statement, leaving nothing of it', async () => {
    await expect(
      their.uow.run(async (tx) => {
        await tx.outbox.record([event(1)]);
        await tx.outbox.record([event(2, OUT_OF_RANGE)]);
      }),
    ).rejects.toEqual(refused);
    expect(await stored()).toEqual([]);
  });

  it('report their own error, not the aborted transaction that a later statement meets', async () => {
    await expect(
      their.uow.run(async (tx) => {
        await tx.outbox.record([event(1, OUT_OF_RANGE)]);
        await tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'never stored', creationDate: T0 });
      }),
    ).rejects.toEqual(refused);
    expect(await their.db.knex('customers').where({ name: 'never stored' })).toEqual([]);
  });

  it('are read back by the statements after them in the same transaction', async () => {
    const seen = await their.uow.begin(async (bound) => {
      await bound.run((tx) => tx.outbox.record([event(1), event(2)]));
      return bound.executor()('outbox_events').where({ customer_id: their.customerId }).count<{ count: string }[]>('* as count');
    });
    expect(Number(seen[0].count)).toBe(2);
  });

  it('in isolated work that fails, are undone with that work only', async () => {
    await their.uow.begin(async (bound) => {
      await bound.run((tx) => tx.outbox.record([event(1)]));
      const refusing = () =>
        bound.run(async (inner) => {
          await inner.outbox.record([event(2)]);
          throw new Error('refused');
        });
      await expect(bound.isolated(refusing)).rejects.toThrow('refused');
      await bound.run((tx) => tx.outbox.record([event(4)]));
    });
    expect(await stored()).toEqual([1, 4]);
  });

  itOnRealServer("PGlite's socket serves one message exchange at a time: nothing is pipelined there, each write is waited for")(
    'in isolated work that resolved before they failed, fail the whole transaction with their error',
    async () => {
      await expect(
        their.uow.begin(async (bound) => {
          await bound.run((tx) => tx.outbox.record([event(1)]));
          await bound.isolated(() => bound.run((inner) => inner.outbox.record([event(2), event(3, OUT_OF_RANGE)])));
          await bound.run((tx) => tx.outbox.record([event(4)]));
        }),
      ).rejects.toEqual(refused);
      expect(await stored()).toEqual([]);
    },
  );

  it('fail for their caller when sent after their transaction ended', async () => {
    let leaked!: TransactionScope;
    await their.uow.run((tx) => {
      leaked = tx;
      return Promise.resolve();
    });
    await expect(leaked.outbox.record([event(1)])).rejects.toThrow(TransactionEndedError);
    expect(await stored()).toEqual([]);
  });

  /** How many socket writes `work` costs on the pool's one connection. */
  async function socketWritesOf(work: () => Promise<unknown>): Promise<number> {
    const connection = (await their.db.knex.client.acquireConnection()) as { connection: { stream: Socket } };
    await their.db.knex.client.releaseConnection(connection);
    const stream = connection.connection.stream as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const { _write, _writev } = stream;
    let flushes = 0;
    const counted = (original: (...args: unknown[]) => void) =>
      function (this: unknown, ...args: unknown[]) {
        flushes++;
        return original.apply(this, args);
      };
    Object.assign(stream, { _write: counted(_write), _writev: counted(_writev) });
    try {
      await work();
    } finally {
      Object.assign(stream, { _write, _writev });
    }
    return flushes;
  }

  itOnRealServer("PGlite's socket serves one message exchange at a time: nothing is pipelined there")(
    'go out together with BEGIN, the statement after them and COMMIT: one socket write per round trip',
    async () => {
      const writes = await socketWritesOf(() =>
        their.uow.run(async (tx) => {
          await tx.outbox.record([event(1)]); // goes out with BEGIN
          await tx.customers.get(their.customerId); // waited for: its round trip carries BEGIN and the event too
          await tx.outbox.record([event(2)]); // goes out with COMMIT
        }),
      );
      expect(writes).toBe(2);
      expect(await stored()).toEqual([1, 2]);
    },
  );

  itOnRealServer("PGlite's socket serves one message exchange at a time: nothing is pipelined there")(
    'go out, with the SAVEPOINT and RELEASE of isolated work, with the statements after them: isolation costs no round trip',
    async () => {
      const writes = await socketWritesOf(() =>
        their.uow.begin(async (bound) => {
          await bound.run((tx) => tx.customers.get(their.customerId)); // with BEGIN
          await bound.isolated(() =>
            bound.run(async (inner) => {
              await inner.customers.get(their.customerId); // with SAVEPOINT
              await inner.outbox.record([event(1)]);
            }),
          );
          await bound.run((tx) => tx.outbox.record([event(2)])); // with the event before it, RELEASE and COMMIT
        }),
      );
      expect(writes).toBe(3);
      expect(await stored()).toEqual([1, 2]);
    },
  );
});
