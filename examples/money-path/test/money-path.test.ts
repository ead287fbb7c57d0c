import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { components } from '@rcs/client';
import { startOwnService, type OwnService } from '../../../packages/app/test/support/processes';

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
});
