import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createDatabase } from '../src/knex-factory';
import { PipelinedPostgresClient } from '../src/pipelined-postgres-client';

type Constructor = abstract new (...args: never[]) => object;

/** The Knex internal pipelined-postgres-client.ts subclasses: in no typings and no changelog. */
const KnexPostgresClient = jest.requireActual<Constructor>('knex/lib/dialects/postgres');

interface ClientInternals {
  readonly driver: typeof pg;
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<unknown>;
}

/**
 * An upgrade canary: PipelinedPostgresClient overrides a method of Knex's PostgreSQL dialect and relies on fields of
 * node-pg's client, and the unit of work on Knex's pool dropping a connection it marks disposed. Each case states
 * one of those assumptions against the installed knex and pg, so an upgrade that moves one fails here by name,
 * instead of connections quietly losing their coalesced writes (nothing else would fail: they only save writes) or
 * a connection left in a failed transaction serving the next request.
 */
describe('the knex and pg internals the pipelined client and the unit of work build on', () => {
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

  it('has its pool drop a connection marked __knex__disposed instead of handing it out again', async () => {
    jest.spyOn(console, 'log').mockImplementation(() => undefined); // Knex's warning about the dropped connection
    const connection = await client().acquireConnection();
    (connection as pg.Client & { __knex__disposed?: unknown }).__knex__disposed = new Error('left in a transaction');
    await client().releaseConnection(connection);
    const next = await client().acquireConnection();
    try {
      expect(next).not.toBe(connection);
    } finally {
      await client().releaseConnection(next);
    }
  });

  it("has node-pg's client keep the pipeline option where query() and the unit of work read it", () => {
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
