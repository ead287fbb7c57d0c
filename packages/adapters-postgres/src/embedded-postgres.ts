import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** A postgres:// URL the ordinary pg driver connects to. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Where the data lives; omitted means in memory (tests). */
  readonly dataDir?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Must be at least the pool size, or extra connections are refused. */
  readonly maxConnections?: number;
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) served on 127.0.0.1 through pglite-socket, so the service keeps
 * its one pg/Knex code path. It is a single backend: statements run one at a time and an open transaction holds
 * every other connection back, which is right for one machine, development and small installs only.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
  const db = await PGlite.create(options.dataDir ? { dataDir: options.dataDir } : {});
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 32,
  });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
