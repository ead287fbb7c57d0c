// Runs the webhook dispatcher and delivery worker and kills itself with SIGKILL just before its Nth SQL statement:
// a crash in the middle of a dispatch, a claim or the recording of an attempt, with no chance to clean up.
const pino = require('pino');
const { createDatabase } = require('../../../adapters-postgres/dist/src');
const { loadConfig } = require('../../dist/src/config');
const { buildContainer, TYPES } = require('../../dist/src/container');
const { webhookWorkers } = require('../../dist/src/workers/webhook-workers');

async function main() {
  const [url, schema, killAt, caFile] = process.argv.slice(2);
  const embedded = process.env.RCS_TEST_STORAGE === 'pglite';
  const knex = createDatabase({ url, schema, poolSize: embedded ? 1 : 4, embedded });
  let statements = 0;
  knex.on('query', (query) => {
    if (++statements === Number(killAt)) {
      process.stdout.write(`killed before: ${query.sql.split('\n')[0].trim()}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  });
  const env = { APP_MODE: 'sandbox', JWT_SECRET: 'x'.repeat(40), WORKERS_ENABLED: 'false', WEBHOOK_CA_FILE: caFile };
  const config = loadConfig({ ...env, WEBHOOK_DISPATCH_POLL_MS: '10', WEBHOOK_DELIVERY_POLL_MS: '10' });
  const app = buildContainer(config, pino({ level: 'silent' }), knex, {
    jwtSecret: 'x'.repeat(40),
    webhookSecretKey: 'w'.repeat(40),
    bankProviderUrl: 'http://127.0.0.1:9',
  }).get(TYPES.Application);
  webhookWorkers(app, config.webhooks, pino({ level: 'silent' })).start();
  // The workers' timers do not hold the process: this does, until statement N kills it.
  setInterval(() => undefined, 1_000);
}

main();
