import { parseArgs } from 'node:util';
import { DomainError, type Application } from '@rcs/domain';
import { ConfigError, loadConfig } from './config';
import { buildContainer, resolveJwtSecret, TYPES } from './container';
import { createLogger } from './logger';
import { openStorage } from './storage';

const USAGE = `usage:
  npm run admin -- customers create --name NAME [--approval-control]
  npm run admin -- credentials create --customer ID [--scopes "clients:read clients:write ..."]
  npm run admin -- credentials revoke --client-id ID
  npm run admin -- ledger verify`;

type Command = (app: Application, values: Record<string, string | boolean | undefined>) => Promise<unknown>;

const COMMANDS: Record<string, Command> = {
  'customers create': async (app, v) => {
    if (typeof v.name !== 'string') throw new UsageError('--name is required');
    const { customer, clientId, clientSecret } = await app.customers.create.execute({ name: v.name, approvalControl: v['approval-control'] === true });
    return { customerId: customer.id, name: customer.name, approvalControl: customer.approvalControl, clientId, clientSecret, note: 'the secret is shown once' };
  },
  'credentials create': async (app, v) => {
    const customerId = Number(v.customer);
    if (!Number.isSafeInteger(customerId) || customerId < 1) throw new UsageError('--customer ID is required');
    const scopes = typeof v.scopes === 'string' ? v.scopes.split(/[\s,]+/).filter(Boolean) : undefined;
    const created = await app.credentials.create.execute({ customerId, scopes });
    return { ...created, note: 'the secret is shown once' };
  },
  'ledger verify': async (app) => {
    const mismatches = await app.ledger.verify.execute();
    if (mismatches.length) {
      throw new LedgerBroken(mismatches.map((m) => `${m.accountKind} account ${m.accountId}: balance ${m.balanceMinor} != movements ${m.movementsMinor} (minor units)`).join('\n'));
    }
    return { ledger: 'consistent: every balance equals the sum of its movements' };
  },
  'credentials revoke': async (app, v) => {
    if (typeof v['client-id'] !== 'string') throw new UsageError('--client-id is required');
    await app.credentials.revoke.execute({ clientId: v['client-id'] });
    return { revoked: v['client-id'] };
  },
};

class UsageError extends Error {}

/** The ledger invariant does not hold; exit 1 with the accounts at fault. */
class LedgerBroken extends Error {}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'approval-control': { type: 'boolean' },
      customer: { type: 'string' },
      scopes: { type: 'string' },
      'client-id': { type: 'string' },
    },
  });
  const command = COMMANDS[positionals.slice(0, 2).join(' ')];
  if (!command) throw new UsageError('unknown command');
  const config = loadConfig();
  const logger = createLogger('warn');
  const storage = await openStorage(config, { reuseRunning: true });
  try {
    // The CLI never calls the provider; the standalone simulator's default address stands in when none is set.
    const bankProviderUrl = config.bankProviderUrl ?? 'http://127.0.0.1:4010';
    const container = buildContainer(config, logger, storage.knex, { jwtSecret: await resolveJwtSecret(config, storage.knex), bankProviderUrl });
    const result = await command(container.get<Application>(TYPES.Application), values);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await storage.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof DomainError || error instanceof LedgerBroken) {
    process.stderr.write(`${error.message}\n${error instanceof UsageError ? USAGE : ''}\n`);
  } else {
    process.stderr.write(`admin command failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
