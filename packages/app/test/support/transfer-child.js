// Runs the transfer worker against the banking provider at BANK_URL and kills itself with SIGKILL just before the
// Nth SQL statement containing a given text: a crash at a chosen step, with no chance to clean up. With no kill
// point it runs until the parent kills it (at a moment the provider chose).
const pino = require('pino');
const { createDatabase } = require('../../../adapters-postgres/dist/src');
const { loadConfig } = require('../../dist/src/config');
const { buildContainer, TYPES } = require('../../dist/src/container');

async function main() {
  const [url, schema, bankUrl, text, occurrence] = process.argv.slice(2);
  const embedded = process.env.RCS_TEST_STORAGE === 'pglite';
  const knex = createDatabase({ url, schema, poolSize: embedded ? 1 : 2, embedded });
  let seen = 0;
  knex.on('query', (query) => {
    if (text && query.sql.includes(text) && ++seen === Number(occurrence)) {
      process.stdout.write(`killed before: ${query.sql.replace(/\s+/g, ' ').trim().slice(0, 60)}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  });
  if (!process.env.TRANSFER_LEASE_MS) throw new Error("TRANSFER_LEASE_MS is the parent test's lease: pass it in the environment");
  const env = { APP_MODE: 'sandbox', JWT_SECRET: 'x'.repeat(40), WORKERS_ENABLED: 'false', TRANSFER_LEASE_MS: process.env.TRANSFER_LEASE_MS };
  const config = loadConfig({ ...env, TRANSFER_BATCH_SIZE: '4', TRANSFER_PAYOUT_CONCURRENCY: '1' });
  const app = buildContainer(config, pino({ level: 'silent' }), knex, {
    jwtSecret: 'x'.repeat(40),
    bankProviderUrl: bankUrl,
    webhookSecretKey: 'w'.repeat(40),
  }).get(TYPES.Application);
  await app.transfers.process.execute({ worker: 'child' });
  process.stdout.write('done\n');
  await knex.destroy();
}

main();
