// Runs one piece of the service's work on a test database and kills itself with SIGKILL at a chosen point:
// `before` the first statement whose SQL matches the pattern is sent, `after` the database answered it, or
// `answering` when the HTTP answer is about to be written (pattern unused). A crash with no chance to clean up.
//   provision <bankUrl>                         one provisioning pass
//   post <token> <path> <idempotencyKey> <body> one HTTP request to the service's Express app
//   put <bankUrl> <token> <path> <body>          one PUT to it, with the banking provider at bankUrl
const http = require('node:http');
const pino = require('pino');
const request = require('supertest');
const { createDatabase } = require('../../../adapters-postgres/dist/src');
const { loadConfig } = require('../../dist/src/config');
const { buildContainer, TYPES } = require('../../dist/src/container');
const { httpAppOf } = require('../../dist/src/service');

const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

async function main() {
  const [url, schema, when, pattern, work, ...args] = process.argv.slice(2);
  // PGlite serves one connection at a time and shares one session between connections (no named statements).
  const embedded = process.env.RCS_TEST_STORAGE === 'pglite';
  const knex = createDatabase({ url, schema, poolSize: embedded ? 1 : 2, embedded });
  const die = (what) => {
    process.stdout.write(`killed ${when}: ${what}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
  const matches = new RegExp(pattern, 'i');
  const atStatement = (query) => {
    if (matches.test(query.sql)) die(query.sql.split('\n')[0].trim());
  };
  if (when === 'before') knex.on('query', atStatement);
  if (when === 'after') knex.on('query-response', (_response, query) => atStatement(query));
  if (when === 'answering')
    http.ServerResponse.prototype.writeHead = function writeHead(status) {
      die(`answer ${status}`);
    };
  const config = loadConfig({ APP_MODE: 'sandbox', JWT_SECRET, WORKERS_ENABLED: 'false' });
  const bankProviderUrl = work === 'provision' || work === 'put' ? args[0] : 'http://127.0.0.1:9';
  const container = buildContainer(config, pino({ level: 'silent' }), knex, { jwtSecret: JWT_SECRET, webhookSecretKey: 'w'.repeat(40), bankProviderUrl });
  if (work === 'provision') {
    await container.get(TYPES.Application).receivableAccounts.provision.execute({ limit: 10 });
  } else if (work === 'post') {
    const [token, path, key, body] = args;
    await request(httpAppOf(container, async () => true))
      .post(path)
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', key)
      .send(JSON.parse(body));
  } else if (work === 'put') {
    const [, token, path, body] = args;
    await request(httpAppOf(container, async () => true))
      .put(path)
      .set('Authorization', `Bearer ${token}`)
      .send(JSON.parse(body));
  }
  process.stdout.write('finished without reaching the statement\n');
  process.exit(0);
}

main();
