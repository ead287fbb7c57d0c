import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOwnService, type OwnService } from './support/processes';

const README = path.join(__dirname, '..', '..', '..', 'README.md');
const MARKER = '<!-- walkthrough -->';

/** The bash blocks README.md marks as the walkthrough, in order, as a reader would paste them. */
function walkthroughScript(): string {
  const blocks = readFileSync(README, 'utf8')
    .split(MARKER)
    .slice(1)
    .map((after) => /^\s*```bash\n([\s\S]*?)\n```/.exec(after)?.[1]);
  if (blocks.length === 0) throw new Error(`README.md has no walkthrough: no ${MARKER} before a bash block`);
  if (blocks.some((b) => b === undefined)) throw new Error(`README.md: a ${MARKER} is not followed by a bash block`);
  return blocks.join('\n');
}

/** The answers the walkthrough prints, in its order. */
const PRINTED = ['account', 'collection', 'paid', 'run', 'balance', 'movements'] as const;

interface Walk {
  /** Each printed answer; the members the tests read past a whole-answer match are named. */
  readonly printed: Record<(typeof PRINTED)[number], unknown> & { readonly run: { settledAmount: number }; readonly movements: unknown[] };
  /** The ids and token the walkthrough's commands took from the answers. */
  readonly taken: { token: string; account: number; invoice: number; creditNote: number; main: number };
}

/** Runs the walkthrough with bash against `url`, stopping at the first command that fails and naming it. */
async function walk(url: string): Promise<Walk> {
  const script = [
    'set -euo pipefail',
    `trap 'echo "the walkthrough stopped at: $BASH_COMMAND" >&2' ERR`,
    walkthroughScript(),
    `printf '{"token":"%s","account":%s,"invoice":%s,"creditNote":%s,"main":%s}\\n' "$TOKEN" "$ACCOUNT" "$INVOICE" "$CREDIT_NOTE" "$MAIN"`,
  ].join('\n');
  const { stdout } = await promisify(execFile)('bash', ['-c', script], {
    // The walkthrough's `node` is the one running the tests.
    env: { ...process.env, API: url, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    timeout: 30_000,
  }).catch((error: { stdout: string; stderr: string }) => {
    throw new Error(`${error.stderr}printed before:\n${error.stdout}`);
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  if (lines.length !== PRINTED.length + 1)
    throw new Error(`the walkthrough printed ${lines.length - 1} answers, not ${PRINTED.length} (${PRINTED.join(', ')}):\n${stdout}`);
  return { printed: Object.fromEntries(PRINTED.map((name, i) => [name, lines[i]])) as Walk['printed'], taken: lines.at(-1) };
}

/**
 * README.md's walkthrough, copied out of it and run as written against the built service started as `npm start`
 * starts it (on embedded PGlite in a data directory of its own, or on the run's PostgreSQL), so it cannot rot.
 */
describe('the README walkthrough', () => {
  let service: OwnService | undefined;
  let first: Walk;
  const get = async (route: string, token: string) => (await fetch(`${service!.url}${route}`, { headers: { authorization: `Bearer ${token}` } })).json();

  beforeAll(async () => {
    service = await startOwnService();
    first = await walk(service.url);
  }, 60_000);

  afterAll(() => service?.stop());

  it('waits for the receivable account to be ACTIVE with a CVU, then shows it with its owner', () => {
    expect(first.printed.account).toMatchObject({
      id: first.taken.account,
      status: 'ACTIVE',
      cvu: expect.stringMatching(/^\d{22}$/),
      owner: { type: 'CLIENT', displayName: 'ACME SA' },
    });
  });

  it('records the sandbox collection on the receivable account', () => {
    expect(first.printed.collection).toMatchObject({
      receivableAccountId: first.taken.account,
      movementType: 'CREDIT',
      operationType: 'DEPOSIT',
      amount: 1300,
    });
  });

  it('marks the invoice PAID', () => {
    expect(first.printed.paid).toMatchObject({ id: first.taken.invoice, status: 'PAID' });
  });

  it('settles the collection with the invoice and its credit note', () => {
    expect(first.printed.run).toEqual({ settlements: 1, settledReceivables: 2, settledAmount: 1300 });
  });

  it('leaves the invoice and its credit note SETTLED', async () => {
    const { token, invoice, creditNote } = first.taken;
    expect(await get(`/v1/receivables?parentReceivableId=${invoice}`, token)).toEqual([expect.objectContaining({ id: creditNote, status: 'SETTLED' })]);
    expect(await get(`/v1/receivables/${invoice}`, token)).toMatchObject({ status: 'SETTLED' });
  });

  it('shows the MAIN current account holding the settled amount', () => {
    expect(first.printed.balance).toMatchObject({ currentAccountId: first.taken.main, totalBalance: first.printed.run.settledAmount });
  });

  it("lists the settlement as the current account's newest movement", () => {
    expect(first.printed.movements[0]).toMatchObject({ currentAccountId: first.taken.main, subtype: 'SETTLEMENT_IN', amount: first.printed.run.settledAmount });
  });

  it('runs again as written on a sandbox that already holds data, settling only what it collected', async () => {
    const again = await walk(service!.url);
    expect(again.taken.account).toBe(first.taken.account);
    expect(again.taken.invoice).not.toBe(first.taken.invoice);
    expect(again.printed.run).toEqual({ settlements: 1, settledReceivables: 2, settledAmount: 1300 });
    expect(again.printed.balance).toMatchObject({ totalBalance: 2600 });
  });
});
