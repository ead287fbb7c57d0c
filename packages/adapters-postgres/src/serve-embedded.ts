import { startEmbeddedPostgres } from './embedded-postgres';

/**
 * A throwaway in-memory PGlite on a free port, for test runs without DATABASE_URL. Prints "READY <url>" and
 * lives until its parent closes stdin or signals it. Run as a separate process because PGlite's dynamic imports
 * do not load inside jest.
 */
async function main(): Promise<void> {
  const embedded = await startEmbeddedPostgres({ maxConnections: 64 });
  process.stdout.write(`READY ${embedded.url}\n`);
  const stop = () => void embedded.stop().finally(() => process.exit(0));
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
