import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createDatabase } from '../src/knex-factory';
import { PipelinedPostgresClient } from '../src/pipelined-postgres-client';

type Constructor = abstract new (...args: never[]) => object;

/** The Knex internals pipelined-postgres-client.ts subclasses: in no typings and no changelog. */
const KnexPostgresClient = jest.requireActual<Constructor>('knex/lib/dialects/postgres');
const KnexPostgresTransaction = jest.requireActual<Constructor & { prototype: { begin(connection: pg.Client): Promise<unknown> } }>(
  'knex/lib/dialects/postgres/execution/pg-transaction',
);

interface ClientInternals {
  readonly driver: typeof pg;
  transaction(...args: unknown[]): { readonly isolationLevel?: string; readonly readOnly?: boolean };
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

/**
 * An upgrade canary: PipelinedPostgresClient overrides methods of Knex's PostgreSQL dialect and relies on fields of
 * its transactions and of node-pg's client. Each case states one of those assumptions against the installed knex
 * and pg, so an upgrade that moves one fails here by name, instead of transactions quietly losing their pipelined
 * BEGIN or connections their coalesced writes (nothing else would fail: both only save round trips and writes).
 */
describe('the knex and pg internals the pipelined client builds on', () => {
  let db: Knex;
  const client = () => db.client as unknown as ClientInternals;

  beforeAll(() => {
    db = createDatabase({ url: process.env.DATABASE_URL!, poolSize: 1, embedded: process.env.RCS_TEST_STORAGE === 'pglite' });
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => db.destroy());

  it('extends the dialect class knex itself uses for client pg', () => {
    expect(knexFactory({ client: 'pg' }).client).toBeInstanceOf(KnexPostgresClient);
    expect(PipelinedPostgresClient.prototype).toBeInstanceOf(KnexPostgresClient);
  });

  it('has knex make its connections with the Client of the driver that _driver() returns', async () => {
    const connection = await client().acquireConnection();
    try {
      expect(client().driver.Client).not.toBe(pg.Client);
      expect(connection).toBeInstanceOf(client().driver.Client);
      expect(connection).toBeInstanceOf(pg.Client);
    } finally {
      await client().releaseConnection(connection);
    }
  });

  it('has knex make its transactions by client.transaction(), keeping isolationLevel and readOnly where begin() reads them', async () => {
    const made = jest.spyOn(client(), 'transaction');
    await db.transaction((trx) => trx.raw('SELECT 1'), { isolationLevel: 'repeatable read', readOnly: true });
    const transaction = made.mock.results[0]?.value;
    expect(transaction).toBeInstanceOf(KnexPostgresTransaction);
    expect([transaction.isolationLevel, transaction.readOnly]).toEqual(['repeatable read', true]);
  });

  it('has knex open a transaction by calling begin() with the connection it runs on', async () => {
    const begin = jest.spyOn(KnexPostgresTransaction.prototype, 'begin');
    // An isolation level makes the pipelined begin() hand over to knex's own, which the spy sits on.
    await db.transaction((trx) => trx.raw('SELECT 1'), { isolationLevel: 'repeatable read' });
    expect(begin).toHaveBeenCalledTimes(1);
    expect(begin.mock.calls[0]?.[0]).toBeInstanceOf(client().driver.Client);
  });

  it("has node-pg's client keep the pipeline option where begin() and query() read it", () => {
    expect(new pg.Client({ pipeline: true })).toHaveProperty('pipeline', true);
  });

  it("has node-pg's client write through a stream that can be corked", () => {
    const { stream } = (new pg.Client() as pg.Client & { connection: { stream: NodeJS.WritableStream & { cork?: unknown; uncork?: unknown } } }).connection;
    expect([typeof stream.cork, typeof stream.uncork]).toEqual(['function', 'function']);
  });

  it("has node-pg's client send each statement through Client.prototype.query", () => {
    expect(Object.prototype.hasOwnProperty.call(pg.Client.prototype, 'query')).toBe(true);
  });
});
