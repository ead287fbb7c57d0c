import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createApiClient, type components } from '@rcs/client';
import { startOwnService, type OwnService } from '../../../packages/app/test/support/processes';
import { EVENT_TYPES } from '../src/webhook-events';

type Balances = components['schemas']['Balances'];
type Movement = components['schemas']['Movement'];
type Transfer = components['schemas']['Transfer'];
type Delivery = components['schemas']['WebhookDelivery'];
/** An event as the example prints it. */
type PrintedEvent = { id: string; type: string; createdAt: string; about: Record<string, number> };

const EXAMPLE = path.join(__dirname, '..');
const SCRIPT = path.join(EXAMPLE, 'dist', 'src', 'main.js');

/** The receiver's key and certificate made by the command the README gives (`npm run certificate`), in `dir`. */
function makeCertificate(dir: string): { RECEIVER_KEY_FILE: string; RECEIVER_CERT_FILE: string } {
  const { scripts } = JSON.parse(readFileSync(path.join(EXAMPLE, 'package.json'), 'utf8'));
  execFileSync('sh', ['-c', scripts.certificate], { cwd: dir, stdio: 'pipe' });
  return { RECEIVER_KEY_FILE: path.join(dir, '.receiver', 'key.pem'), RECEIVER_CERT_FILE: path.join(dir, '.receiver', 'cert.pem') };
}

/** Runs the built example as a reader would against `baseUrl`, with `env`, and reads back each step it printed. */
async function runExample(baseUrl: string, env: NodeJS.ProcessEnv): Promise<Map<string, unknown>> {
  const options = { env: { ...process.env, BASE_URL: baseUrl, ...env }, timeout: 60_000 };
  const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT], options).catch((error: { stdout: string; stderr: string }) => {
    throw new Error(`${error.stderr}printed before:\n${error.stdout}`);
  });
  const steps = stdout
    .trim()
    .split('\n')
    .map((line) => /^(\S+)\s+(.*)$/.exec(line)!);
  return new Map(steps.map(([, step, answer]) => [step, JSON.parse(answer)]));
}

/**
 * The example script, built, run against the built service started as `npm start` starts it, so it cannot rot:
 * first with the receiver's certificate, made as the README says and trusted by the service through
 * WEBHOOK_CA_FILE, then with none, as a reader who only ran `npm start` would.
 */
describe('the money path example', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rcs-money-path-'));
  let service: OwnService | undefined;
  let printed: Map<string, unknown>;

  beforeAll(async () => {
    const certificate = makeCertificate(dir);
    service = await startOwnService({ WEBHOOK_CA_FILE: certificate.RECEIVER_CERT_FILE });
    printed = await runExample(service.url, certificate);
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints every step of the money path in order, between the webhook registered and the events it received', () => {
    expect([...printed.keys()]).toEqual([
      'webhook',
      'webhook-test',
      'logged-in',
      'client',
      'receivable-account',
      'invoice',
      'credit-note',
      'collection',
      'paid',
      'settlement-run',
      'balance',
      'movements',
      'sub-balance',
      'recipient-by-cbu',
      'recipient-by-alias',
      'payout',
      'internal-transfer',
      'transfer-run',
      'transfers',
      'main-balance-after',
      'main-movements-after',
      'sub-balance-after',
      'sub-movements-after',
      'webhook-events',
      'webhook-redelivery',
      'webhook-receiver',
    ]);
  });

  it('registers a webhook for every event type at its HTTPS receiver, printed without its secret, and reaches it', () => {
    const webhook = printed.get('webhook') as components['schemas']['Webhook'];
    expect(webhook).toMatchObject({ url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/hooks$/), status: 'ACTIVE' });
    expect([...webhook.events].sort()).toEqual([...EVENT_TYPES].sort());
    expect(webhook).not.toHaveProperty('secret');
    expect(printed.get('webhook-test')).toMatchObject({ eventType: 'webhook.test', status: 'SUCCESS', responseCode: 204 });
  });

  it('receives, verified and once each, the events of every step it walked', () => {
    const id = (step: string) => (printed.get(step) as { id: number }).id;
    const [invoice, creditNote] = [id('invoice'), id('credit-note')];
    const settlement = events().find((event) => event.type === 'settlement.completed')!;
    expect(events().map(({ type, about }) => [type, about])).toEqual(
      expect.arrayContaining([
        ['webhook.test', { webhook: id('webhook') }],
        ['receivable-account.activated', { receivableAccount: id('receivable-account') }],
        ['receivable.created', { receivable: invoice }],
        ['receivable.created', { receivable: creditNote }],
        ['movement.created', { movement: id('collection') }],
        ['receivable.paid', { receivable: invoice }],
        ['receivable.settled', { receivable: invoice }],
        ['receivable.settled', { receivable: creditNote }],
        ...(printed.get('transfers') as Transfer[]).map((transfer) => ['transfer.completed', { transfer: transfer.id }]),
      ]),
    );
    expect(settlement.about.settlement).toBe((printed.get('movements') as Movement[])[0].settlementId);
    expect(new Set(events().map((event) => event.id)).size).toBe(events().length);
    expect(printed.get('webhook-receiver')).toMatchObject({ events: events().length, refused: 0 });
  });

  it('skips a redelivered event as a duplicate', () => {
    const settlement = events().find((event) => event.type === 'settlement.completed')!;
    expect(printed.get('webhook-redelivery')).toMatchObject({ eventId: settlement.id, attempt: 2, status: 'SUCCESS' } satisfies Partial<Delivery>);
    expect(printed.get('webhook-receiver')).toEqual({ events: events().length, duplicates: 1, refused: 0 });
  });

  it('deletes its webhook at the end, leaving no endpoint to fail', async () => {
    const api = createApiClient({ baseUrl: service!.url, credentials: { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' } });
    const { data: webhooks } = await api.GET('/v1/webhooks');
    expect(webhooks).toEqual([]);
  });

  it('waits for the receivable account to be ACTIVE with its CVU', () => {
    expect(printed.get('receivable-account')).toMatchObject({ status: 'ACTIVE', cvu: expect.stringMatching(/^\d{22}$/) });
  });

  it('settles the collected money with the invoice and its credit note', () => {
    expect(printed.get('settlement-run')).toEqual({ settlements: 1, settledReceivables: 2, settledAmount: 1300 });
  });

  it('ends with the MAIN current account holding the settled amount', () => {
    const { settledAmount } = printed.get('settlement-run') as components['schemas']['SettlementRun'];
    expect(printed.get('balance')).toMatchObject({ totalBalance: settledAmount });
  });

  it('saves a recipient by CBU with its bank, and one by alias with the account the provider resolved it to', () => {
    expect(printed.get('recipient-by-cbu')).toMatchObject({ cbuCvu: '2850590940090418135201', alias: null, entity: expect.stringMatching(/Macro/) });
    expect(printed.get('recipient-by-alias')).toMatchObject({ alias: 'maria.lopez.sol', cbuCvu: expect.stringMatching(/^\d{22}$/) });
  });

  it('pays the CBU recipient by its contactId and moves money to SUB, both COMPLETED', () => {
    const recipient = printed.get('recipient-by-cbu') as components['schemas']['Contact'];
    const { currentAccountId: mainId } = printed.get('balance') as Balances;
    const { currentAccountId: subId } = printed.get('sub-balance') as Balances;
    const transfers = printed.get('transfers') as Transfer[];
    expect(transfers).toHaveLength(2);
    expect(transfers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'OUTGOING_TRANSFER',
          sourceAccountId: mainId,
          contactId: recipient.id,
          destination: expect.objectContaining({ cbuCvu: recipient.cbuCvu, counterParty: { name: recipient.name, taxId: recipient.taxId } }),
          status: 'COMPLETED',
          executionDate: expect.any(String),
        }),
        expect.objectContaining({
          type: 'INTERNAL_TRANSFER',
          sourceAccountId: mainId,
          destination: expect.objectContaining({ accountId: subId }),
          status: 'COMPLETED',
        }),
      ]),
    );
  });

  it('takes from MAIN to the cent what was paid and moved, and gives SUB what was moved', () => {
    const paid = transferred('OUTGOING_TRANSFER');
    const moved = transferred('INTERNAL_TRANSFER');
    expect([paid, moved]).toEqual([450_75, 300_10]);
    expect(cents(printed.get('balance')) - cents(printed.get('main-balance-after'))).toBe(paid + moved);
    expect(cents(printed.get('sub-balance-after')) - cents(printed.get('sub-balance'))).toBe(moved);
    expect(movementsOf('main-movements-after')).toEqual(
      expect.arrayContaining([
        ['DEBIT', 'TRANSFER_OUT', paid],
        ['DEBIT', 'TRANSFER_OUT', moved],
      ]),
    );
    expect(movementsOf('sub-movements-after')).toContainEqual(['CREDIT', 'TRANSFER_IN', moved]);
  });

  it('runs again on the same sandbox without a certificate, saying how to add the receiver, and pays the recipients it saved the first time', async () => {
    const again = await runExample(service!.url, { RECEIVER_CERT_FILE: path.join(dir, 'absent.pem') });
    expect([...again.keys()].slice(0, 2)).toEqual(['no-webhook-receiver', 'logged-in']);
    expect(again.get('no-webhook-receiver')).toMatch(/npm run certificate -w examples\/money-path.*WEBHOOK_CA_FILE=/);
    for (const step of ['recipient-by-cbu', 'recipient-by-alias'])
      expect(again.get(step)).toMatchObject({ id: (printed.get(step) as components['schemas']['Contact']).id });
    expect(again.get('transfers')).toEqual([expect.objectContaining({ status: 'COMPLETED' }), expect.objectContaining({ status: 'COMPLETED' })]);
  }, 60_000);

  /** The events the example printed as received. */
  function events(): PrintedEvent[] {
    return printed.get('webhook-events') as PrintedEvent[];
  }

  /** The amount of the printed transfer of that type, in cents. */
  function transferred(type: Transfer['type']): number {
    return Math.round((printed.get('transfers') as Transfer[]).find((transfer) => transfer.type === type)!.amount * 100);
  }

  /** A printed balance's total, in cents: exact, where subtracting the API's decimal numbers of pesos is not. */
  function cents(balance: unknown): number {
    return Math.round((balance as Balances).totalBalance * 100);
  }

  /** A printed list of movements as [movementType, subtype, cents]. */
  function movementsOf(step: string): [string, string | null, number][] {
    return (printed.get(step) as Movement[]).map((movement) => [movement.movementType, movement.subtype, Math.round(movement.amount * 100)]);
  }
});
