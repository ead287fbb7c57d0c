import { parseArgs } from 'node:util';
import { DomainError, type Application } from '@rcs/domain';
import { ADMIN_COMMANDS, LedgerBroken, UsageError, type AdminCommand } from './admin-commands';
import { ConfigError, loadConfig } from './config';
import { buildContainer, resolveJwtSecret, resolveWebhookSecretKey, TYPES } from './container';
import { createLogger } from './logger';
import { openStorage } from './storage';

const usageOf = (name: string, command: AdminCommand) => `npm run admin -- ${name}${command.usage ? ` ${command.usage}` : ''}`;

/** The command the line names, if any, and its group's name when it names a known one (`customers --help`). */
function commandOf(argv: string[]): { name: string; command?: AdminCommand; group?: string } {
  const name = argv.slice(0, 2).join(' ');
  const group = Object.keys(ADMIN_COMMANDS).some((n) => n.startsWith(`${argv[0]} `)) ? argv[0] : undefined;
  return { name, command: ADMIN_COMMANDS[name], group };
}

/** Every command's usage, or those of one group. */
function overview(group?: string): string {
  const names = Object.keys(ADMIN_COMMANDS).filter((name) => !group || name.startsWith(`${group} `));
  return [
    'usage:',
    ...names.map((name) => `  ${usageOf(name, ADMIN_COMMANDS[name])}`),
    '',
    "Add --help to a command for what it does. Without DATABASE_URL the commands use the running service's",
    'embedded database, or open DATA_DIR themselves while no service runs.',
  ].join('\n');
}

/** What to show beside a usage error: the command's usage, else the commands the line may have meant. */
function usageFor(argv: string[]): string {
  const { name, command, group } = commandOf(argv);
  return command ? `usage: ${usageOf(name, command)}` : overview(group);
}

async function main(argv: string[]): Promise<void> {
  const { name, command, group } = commandOf(argv);
  if (argv.includes('--help') || argv.includes('-h')) {
    const help = command ? `usage: ${usageOf(name, command)}\n\n${command.description}` : overview(group);
    return void process.stdout.write(`${help}\n`);
  }
  if (!command) {
    const named = argv.filter((a) => !a.startsWith('-')).join(' ');
    throw new UsageError(named ? `unknown command: ${named}` : 'no command given');
  }
  const work = command.prepare(parseOptions(command, argv.slice(2)));
  const config = loadConfig();
  const storage = await openStorage(config, { reuseRunning: true });
  try {
    // The CLI never calls the provider; the standalone simulator's default address stands in when none is set.
    const bankProviderUrl = config.bankProviderUrl ?? 'http://127.0.0.1:4010';
    const container = buildContainer(config, createLogger('warn'), storage.knex, {
      jwtSecret: await resolveJwtSecret(config, storage.knex),
      webhookSecretKey: await resolveWebhookSecretKey(config, storage.knex),
      bankProviderUrl,
    });
    const result = await work(container.get<Application>(TYPES.Application));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await storage.close();
  }
}

function parseOptions(command: AdminCommand, args: string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args, options: command.options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    // parseArgs names the unknown option, the stray argument or the option missing its value.
    throw new UsageError((error as Error).message);
  }
}

const argv = process.argv.slice(2);
main(argv).catch((error) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${usageFor(argv)}\n`);
    process.exit(2);
  }
  const known = error instanceof ConfigError || error instanceof DomainError || error instanceof LedgerBroken;
  process.stderr.write(known ? `${error.message}\n` : `admin command failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
