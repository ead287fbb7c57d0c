import type { Knex } from 'knex';
import { execute } from './prepared';

/**
 * The writes of one transaction whose results nobody reads (events, a stored idempotent response). On a
 * pipelining connection `send` only puts the statement on the wire and returns: it travels with whatever
 * follows, up to the COMMIT, instead of costing a round trip of its own. Its outcome is checked before the
 * transaction counts as done (`firstFailure`): a failed write has aborted the transaction on the server, which
 * then answers the COMMIT with a rollback, so nothing of it stays and the unit of work reports the write's error.
 * Without pipelining (PGlite) `send` waits for the statement like any other.
 */
export class TransactionWrites {
  private readonly outcomes: Array<Promise<Error | undefined>> = [];

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly connection: unknown,
    private readonly pipelined: boolean,
  ) {}

  /** Statements are sent in the order of the calls, each before this returns. */
  send(name: string, sql: string, bindings: readonly unknown[]): Promise<void> {
    // A write after the transaction ended (work outliving it) fails, and its caller must hear of it.
    const ended = this.trx.isCompleted();
    const done = execute(this.trx.client as Knex.Client, name, sql, bindings, this.connection);
    return ended ? done.then(() => undefined) : this.track(done);
  }

  /**
   * A statement of this transaction already sent by other means (BEGIN, a savepoint's writes), settling as it answers:
   * waited for without pipelining, else left to travel with what follows and checked by firstFailure.
   */
  async track(done: Promise<unknown>): Promise<void> {
    if (!this.pipelined) {
      await done;
      return;
    }
    // The error is kept, not thrown: nobody awaits this promise before firstFailure does.
    this.outcomes.push(
      done.then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error('pipelined write failed', { cause: error })),
      ),
    );
  }

  /** A queue of its own for the writes of a savepoint in this transaction (`trx`, its scope): same connection, checked apart. */
  nested(trx: Knex.Transaction): TransactionWrites {
    return new TransactionWrites(trx, this.connection, this.pipelined);
  }

  /** The error of the first write sent without waiting that failed, once all of them have answered. */
  async firstFailure(): Promise<Error | undefined> {
    for (const outcome of await Promise.all(this.outcomes)) if (outcome !== undefined) return outcome;
    return undefined;
  }
}
