import type { IncomingMessage, ServerResponse } from 'node:http';
import { composeCvu, isValidCbuCvu } from '@rcs/domain';
import { answerLate, readBody, sendJson } from './simulator-http';

/**
 * Destinations that make the simulated provider misbehave, like a card processor's test numbers: the account
 * number (digits 9 to 21) decides, whatever the entity; these are ready-made ones at Banco de la Nación.
 */
export const MAGIC_DESTINATIONS = {
  /** REJECTED at once: the account is closed. */
  REJECTED: composeCvu('0110599', 9_999_999_990_001n),
  /** 503 on every send; nothing is taken. */
  DOWN: composeCvu('0110599', 9_999_999_990_002n),
  /** No answer until the caller gives up; nothing is taken. */
  TIMEOUT: composeCvu('0110599', 9_999_999_990_003n),
  /** Taken and COMPLETED at once, but every answer to a send comes after the caller gave up: getPayout shows it. */
  LATE: composeCvu('0110599', 9_999_999_990_004n),
  /** ACCEPTED, then COMPLETED once the payout delay has passed (asked again or read with getPayout). */
  SLOW_TO_COMPLETE: composeCvu('0110599', 9_999_999_990_005n),
} as const;

const accountOf = (cbuCvu: string) => cbuCvu.slice(8, 21);
const isMagic = (cbuCvu: string, magic: string) => accountOf(cbuCvu) === accountOf(magic);

interface StoredPayout {
  readonly payoutId: string;
  readonly amountMinor: string;
  readonly currencyCode: string;
  readonly destination: { readonly cbuCvu: string };
  readonly takenAt: number;
  readonly rejected: boolean;
}

export interface PayoutDeskOptions {
  readonly hangMs: number;
  readonly payoutDelayMs: number;
  readonly now: () => number;
  readonly hanging: Set<NodeJS.Timeout>;
}

/**
 * The provider's payouts, simulated. Payouts are kept by their id (the caller's idempotency
 * key): a second send with the same id answers the first payout's record and pays nothing.
 */
export function payoutDesk(options: PayoutDeskOptions) {
  const payouts = new Map<string, StoredPayout>();

  const recordOf = (p: StoredPayout) => {
    const base = { payoutId: p.payoutId, amountMinor: p.amountMinor, currencyCode: p.currencyCode, destination: p.destination };
    if (p.rejected) return { ...base, state: 'REJECTED', reason: 'destination account is closed (simulated)' };
    const pending = isMagic(p.destination.cbuCvu, MAGIC_DESTINATIONS.SLOW_TO_COMPLETE) && options.now() - p.takenAt < options.payoutDelayMs;
    return { ...base, state: pending ? 'ACCEPTED' : 'COMPLETED' };
  };

  async function sendPayout(req: IncomingMessage, res: ServerResponse, payoutId: string): Promise<void> {
    const known = payouts.get(payoutId);
    if (known) return answer(res, known);
    let body: { amountMinor?: unknown; currencyCode?: unknown; destination?: { cbuCvu?: unknown } };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return sendJson(res, 400, { error: 'body must be JSON' });
    }
    const cbuCvu = body.destination?.cbuCvu;
    if (typeof body.amountMinor !== 'string' || !/^[1-9]\d*$/.test(body.amountMinor) || typeof body.currencyCode !== 'string') {
      return sendJson(res, 400, { error: 'amountMinor (a string of digits above 0) and currencyCode are required' });
    }
    if (typeof cbuCvu !== 'string' || !isValidCbuCvu(cbuCvu)) return sendJson(res, 400, { error: 'destination.cbuCvu must be a valid CBU/CVU' });
    if (isMagic(cbuCvu, MAGIC_DESTINATIONS.DOWN)) return sendJson(res, 503, { error: 'provider down (simulated)' });
    if (isMagic(cbuCvu, MAGIC_DESTINATIONS.TIMEOUT)) return answerLate(options.hanging, options.hangMs, () => sendJson(res, 503, { error: 'too late' }));
    const payout: StoredPayout = {
      payoutId,
      amountMinor: body.amountMinor,
      currencyCode: body.currencyCode,
      destination: { cbuCvu },
      takenAt: options.now(),
      rejected: isMagic(cbuCvu, MAGIC_DESTINATIONS.REJECTED),
    };
    payouts.set(payoutId, payout);
    answer(res, payout);
  }

  function answer(res: ServerResponse, payout: StoredPayout): void {
    if (!isMagic(payout.destination.cbuCvu, MAGIC_DESTINATIONS.LATE)) return sendJson(res, 200, recordOf(payout));
    answerLate(options.hanging, options.hangMs, () => sendJson(res, 200, recordOf(payout)));
  }

  /** Answers the request if it is one of the desk's; false when the path is not. */
  return async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const payout = /^\/v1\/payouts\/([^/]+)$/.exec(path);
    if (!payout) return false;
    const payoutId = decodeURIComponent(payout[1]);
    if (req.method === 'PUT') await sendPayout(req, res, payoutId);
    else if (req.method === 'GET') {
      const known = payouts.get(payoutId);
      sendJson(res, known ? 200 : 404, known ? recordOf(known) : { error: 'no payout with this id' });
    } else return false;
    return true;
  };
}
