import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { components } from '@rcs/client';
import { startOwnService, type OwnService } from '../../../packages/app/test/support/processes';

type Balances = components['schemas']['Balances'];
type Movement = components['schemas']['Movement'];
type Transfer = components['schemas']['Transfer'];

const SCRIPT = path.join(__dirname, '..', 'dist', 'src', 'main.js');

/** Runs the built example as a reader would against `baseUrl`, and reads back each step it printed. */
async function runExample(baseUrl: string): Promise<Map<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT], { env: { ...process.env, BASE_URL: baseUrl }, timeout: 30_000 }).catch(
    (error: { stdout: string; stderr: string }) => {
      throw new Error(`${error.stderr}printed before:\n${error.stdout}`);
    },
  );
  const steps = stdout
    .trim()
    .split('\n')
    .map((line) => /^(\S+)\s+(.*)$/.exec(line)!);
  return new Map(steps.map(([, step, answer]) => [step, JSON.parse(answer)]));
}

/** The example script, built, run against the built service started as `npm start` starts it, so it cannot rot. */
describe('the money path example', () => {
  let service: OwnService | undefined;
  let printed: Map<string, unknown>;

  beforeAll(async () => {
    service = await startOwnService();
    printed = await runExample(service.url);
  }, 60_000);

  afterAll(() => service?.stop());

  it('prints every step of the money path in order', () => {
    expect([...printed.keys()]).toEqual([
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
    ]);
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

  it('runs again on the same sandbox, paying the recipients it saved the first time', async () => {
    const again = await runExample(service!.url);
    for (const step of ['recipient-by-cbu', 'recipient-by-alias'])
      expect(again.get(step)).toMatchObject({ id: (printed.get(step) as components['schemas']['Contact']).id });
    expect(again.get('transfers')).toEqual([expect.objectContaining({ status: 'COMPLETED' }), expect.objectContaining({ status: 'COMPLETED' })]);
  }, 30_000);

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
