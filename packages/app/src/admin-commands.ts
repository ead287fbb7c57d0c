import { ownerTypesOf, scopesProblem, ValidationError, type Application } from '@rcs/domain';

type Values = Record<string, string | boolean | undefined>;

/** One `npm run admin -- <group> <verb>` command: its options, its help, and what it does. */
export interface AdminCommand {
  /** Its options as the help writes them, after the command's name. */
  readonly usage: string;
  readonly description: string;
  readonly options: Record<string, { type: 'string' | 'boolean' }>;
  /** Checks the options, so a usage error comes before any storage is opened, and returns the work to do. */
  prepare(values: Values): (app: Application) => Promise<unknown>;
}

/** The command line was wrong (unknown command or option, a missing or malformed value): exit code 2. */
export class UsageError extends Error {}

/** The ledger invariant does not hold; exit 1 with the accounts at fault. */
export class LedgerBroken extends Error {}

function customerIdOf(values: Values): number {
  const id = typeof values.customer === 'string' && /^[1-9]\d*$/.test(values.customer) ? Number(values.customer) : NaN;
  if (!Number.isSafeInteger(id)) throw new UsageError('--customer ID is required: a customer id (see `customers list`)');
  return id;
}

export const ADMIN_COMMANDS: Record<string, AdminCommand> = {
  'customers create': {
    usage: '--name NAME [--approval-control] [--owner-types "CLIENT ASSOCIATE CLIENT_AND_ASSOCIATE"]',
    description:
      'Creates a customer with its MAIN and SUB current accounts and a first credential holding every scope.\n' +
      '--approval-control makes its transfers wait for a second credential. --owner-types names the receivable account\n' +
      'owners its operating model allows (every one unless given; another is 422 owner-type-not-supported). The secret is printed once.',
    options: { name: { type: 'string' }, 'approval-control': { type: 'boolean' }, 'owner-types': { type: 'string' } },
    prepare(v) {
      const name = v.name;
      if (typeof name !== 'string') throw new UsageError('--name NAME is required');
      const given = v['owner-types'];
      let enabledOwnerTypes: readonly string[] | undefined;
      try {
        enabledOwnerTypes = typeof given === 'string' ? ownerTypesOf(given.split(/[\s,]+/).filter(Boolean)) : undefined;
      } catch (error) {
        throw new UsageError(`--owner-types ${error instanceof ValidationError ? error.invalidParams[0].reason : String(error)}`);
      }
      return async (app) => {
        const { customer, clientId, clientSecret } = await app.customers.create.execute({
          name,
          approvalControl: v['approval-control'] === true,
          enabledOwnerTypes,
        });
        return {
          customerId: customer.id,
          name: customer.name,
          approvalControl: customer.approvalControl,
          enabledOwnerTypes: customer.enabledOwnerTypes,
          clientId,
          clientSecret,
          note: 'the secret is shown once',
        };
      };
    },
  },
  'customers list': {
    usage: '',
    description: 'Lists every customer, oldest first: id, name, whether its transfers need approval and the owner types it allows.',
    options: {},
    prepare: () => async (app) => {
      const customers = await app.customers.list.execute();
      return customers.map((c) => ({ id: c.id, name: c.name, approvalControl: c.approvalControl, enabledOwnerTypes: c.enabledOwnerTypes }));
    },
  },
  'credentials create': {
    usage: '--customer ID [--scopes "clients:read clients:write ..."]',
    description: 'Issues a further credential to a customer, with every scope unless --scopes names some. The secret is printed once.',
    options: { customer: { type: 'string' }, scopes: { type: 'string' } },
    prepare(v) {
      const customerId = customerIdOf(v);
      const scopes = typeof v.scopes === 'string' ? v.scopes.split(/[\s,]+/).filter(Boolean) : undefined;
      const problem = scopes && scopesProblem(scopes);
      if (problem) throw new UsageError(`--scopes ${problem}`);
      return async (app) => ({ ...(await app.credentials.create.execute({ customerId, scopes })), note: 'the secret is shown once' });
    },
  },
  'credentials list': {
    usage: '--customer ID',
    description: "Lists a customer's credentials, oldest first: client id, scopes, status and creation date. Secrets are never shown.",
    options: { customer: { type: 'string' } },
    prepare(v) {
      const customerId = customerIdOf(v);
      return async (app) => {
        const credentials = await app.credentials.list.execute({ customerId });
        return credentials.map((c) => ({ clientId: c.clientId, scopes: c.scopes, status: c.status, creationDate: c.creationDate }));
      };
    },
  },
  'credentials revoke': {
    usage: '--client-id ID',
    description: 'Revokes a credential: it can no longer log in, and its tokens stop working within 10 seconds.',
    options: { 'client-id': { type: 'string' } },
    prepare(v) {
      const clientId = v['client-id'];
      if (typeof clientId !== 'string') throw new UsageError('--client-id ID is required');
      return async (app) => {
        await app.credentials.revoke.execute({ clientId });
        return { revoked: clientId };
      };
    },
  },
  'ledger verify': {
    usage: '',
    description: 'Checks that every account balance equals the sum of its movements; exit code 1 names any account where it does not.',
    options: {},
    prepare: () => async (app) => {
      const mismatches = await app.ledger.verify.execute();
      if (mismatches.length) {
        throw new LedgerBroken(
          mismatches.map((m) => `${m.accountKind} account ${m.accountId}: balance ${m.balanceMinor} != movements ${m.movementsMinor} (minor units)`).join('\n'),
        );
      }
      return { ledger: 'consistent: every balance equals the sum of its movements' };
    },
  },
};
