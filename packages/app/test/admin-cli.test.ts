import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase } from '@rcs/adapters-postgres';
import { ADMIN_COMMANDS } from '../src/admin-commands';
import { runAdmin, START_TIMEOUT_MS, startService, type ServiceProcess } from './support/processes';

/** A server nothing listens on: a command that opened storage would fail with exit code 1. */
const NO_STORAGE = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' };

describe('admin CLI: help and usage', () => {
  it('answers --help at the top level with every command, exit code 0', async () => {
    const help = await runAdmin(['--help'], NO_STORAGE);
    expect(help.code).toBe(0);
    for (const name of Object.keys(ADMIN_COMMANDS)) expect(help.stdout).toContain(`npm run admin -- ${name}`);
  });

  it.each(Object.keys(ADMIN_COMMANDS))('answers "%s --help" with its usage and what it does, without opening storage', async (name) => {
    const help = await runAdmin([...name.split(' '), '--help'], NO_STORAGE);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`usage: npm run admin -- ${name}`);
    expect(help.stdout).toContain(ADMIN_COMMANDS[name].description);
  });

  it('refuses an unknown command with exit code 2, naming it and listing the commands', async () => {
    const run = await runAdmin(['customers', 'delete'], NO_STORAGE);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command: customers delete');
    expect(run.stderr).toContain('npm run admin -- customers list');
  });

  it('refuses a command without its required option with exit code 2 and its usage, before opening storage', async () => {
    const run = await runAdmin(['credentials', 'list'], NO_STORAGE);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--customer ID is required');
    expect(run.stderr).toContain('usage: npm run admin -- credentials list --customer ID');
  });

  it.each(['', ' '])('refuses --scopes "%s" with exit code 2 instead of issuing every scope, before opening storage', async (scopes) => {
    const run = await runAdmin(['credentials', 'create', '--customer', '1', '--scopes', scopes], NO_STORAGE);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--scopes must name at least one scope');
  });

  it('refuses --scopes naming an unknown scope with exit code 2, naming it', async () => {
    const run = await runAdmin(['credentials', 'create', '--customer', '1', '--scopes', 'clients:read bogus:write'], NO_STORAGE);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--scopes unknown scopes: bogus:write');
  });

  it('refuses --owner-types naming an unknown owner type with exit code 2, naming it, before opening storage', async () => {
    const run = await runAdmin(['customers', 'create', '--name', 'Odd', '--owner-types', 'CLIENT DRIVER'], NO_STORAGE);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--owner-types unknown owner types: DRIVER');
  });

  it('refuses an option the command does not take with exit code 2', async () => {
    const run = await runAdmin(['customers', 'list', '--customer', '1'], NO_STORAGE);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option '--customer'");
  });
});

describe('admin CLI: lists, on a running embedded service', () => {
  let dataDir: string;
  let service: ServiceProcess;
  const admin = async (...args: string[]) => {
    const run = await runAdmin(args, { DATABASE_URL: undefined, DATA_DIR: dataDir });
    if (run.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rcs-admin-'));
    service = await startService({ DATABASE_URL: undefined, DATA_DIR: dataDir, WORKERS_ENABLED: 'false' });
  }, START_TIMEOUT_MS + 5_000);
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exit;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every customer with its id, name, approval control and the owner types it allows', async () => {
    const created = await admin('customers', 'create', '--name', 'Acme Corp', '--approval-control', '--owner-types', 'ASSOCIATE,CLIENT');
    const every = ['CLIENT', 'ASSOCIATE', 'CLIENT_AND_ASSOCIATE'];
    expect(await admin('customers', 'list')).toEqual([
      { id: expect.any(Number), name: 'Sandbox Customer 1', approvalControl: false, enabledOwnerTypes: every },
      { id: expect.any(Number), name: 'Sandbox Customer 2', approvalControl: false, enabledOwnerTypes: every },
      { id: created.customerId, name: 'Acme Corp', approvalControl: true, enabledOwnerTypes: ['CLIENT', 'ASSOCIATE'] },
    ]);
  });

  it("lists a customer's credentials with client id, scopes, status and creation date, and no secret or hash", async () => {
    const { customerId, clientId, clientSecret } = await admin('customers', 'create', '--name', 'Credentials Corp');
    const second = await admin('credentials', 'create', '--customer', String(customerId), '--scopes', 'clients:read');
    await admin('credentials', 'revoke', '--client-id', clientId);
    const listed = await runAdmin(['credentials', 'list', '--customer', String(customerId)], { DATABASE_URL: undefined, DATA_DIR: dataDir });
    expect(JSON.parse(listed.stdout)).toEqual([
      { clientId, scopes: expect.arrayContaining(['clients:read', 'receivables:write']), status: 'REVOKED', creationDate: expect.any(String) },
      { clientId: second.clientId, scopes: ['clients:read'], status: 'ACTIVE', creationDate: expect.any(String) },
    ]);
    const endpoint = JSON.parse(readFileSync(path.join(dataDir, 'embedded-endpoint.json'), 'utf8')) as { url: string };
    const knex = createDatabase({ url: endpoint.url, poolSize: 1, embedded: true });
    let hashes: string[];
    try {
      hashes = await knex('credentials').where({ customer_id: customerId }).pluck('secret_hash');
    } finally {
      await knex.destroy();
    }
    for (const secret of [clientSecret, second.clientSecret, ...hashes]) expect(listed.stdout).not.toContain(secret);
  });

  it('refuses to list the credentials of a customer that does not exist, with exit code 1', async () => {
    const run = await runAdmin(['credentials', 'list', '--customer', '999999'], { DATABASE_URL: undefined, DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('customer 999999 does not exist');
  });
});
