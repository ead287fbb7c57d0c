// Runs the settlement cycle (one account per transaction) and kills itself with SIGKILL just before its Nth SQL
// statement: a crash in the middle of a transaction, between statements, with no chance to clean up.
const pino = require('pino');
const { createDatabase } = require('../../../adapters-postgres/dist/src');
const { loadConfig } = require('../../dist/src/config');
const { buildContainer, TYPES } = require('../../dist/src/container');

async function main() {
  const [url, schema, killAt] = process.argv.slice(2);
  // PGlite serves one connection at a time and shares one session between connections (no named statements).
  const embedded = process.env.RCS_TEST_STORAGE === 'pglite';
  const knex = createDatabase({ url, schema, poolSize: embedded ? 1 : 2, embedded });
  let statements = 0;
  knex.on('query', (query) => {
    if (++statements === Number(killAt)) {
      process.stdout.write(`killed before: ${query.sql.split('\n')[0].trim()}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  });
  const config = loadConfig({ APP_MODE: 'sandbox', JWT_SECRET: 'x'.repeat(40), WORKERS_ENABLED: 'false' });
  const app = buildContainer(config, pino({ level: 'silent' }), knex, {
    jwtSecret: 'x'.repeat(40),
    webhookSecretKey: 'w'.repeat(40),
    bankProviderUrl: 'http://127.0.0.1:9',
  }).get(TYPES.Application);
  await app.settlements.run.execute({ chunkSize: 1 });
}

main();
