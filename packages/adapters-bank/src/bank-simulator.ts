import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { composeCvu } from '@rcs/domain';
import { sendIncomingTransfer, type IncomingTransferNotification } from './incoming-transfer-notification';
import { aliasDesk } from './simulated-alias-directory';
import { payoutDesk } from './simulated-payouts';
import { answerLate, readBody, sendJson as send } from './simulator-http';

/** Magic words in holderName, like a card processor's test numbers; see this package's README. */
export const MAGIC = {
  DOWN: 'SIM-DOWN',
  TIMEOUT: 'SIM-TIMEOUT',
  REJECT: 'SIM-REJECT',
  FLAKY: 'SIM-FLAKY',
  INVALID: 'SIM-INVALID',
} as const;

export interface BankSimulatorOptions {
  /** How long after the first request a CVU is assigned (SANDBOX_PROVISIONING_DELAY_MS). */
  readonly provisioningDelayMs?: number;
  /** How long SIM-TIMEOUT requests (and slow aliases and payouts) hang before answering. */
  readonly hangMs?: number;
  /** How long a payout to MAGIC_DESTINATIONS.SLOW_TO_COMPLETE stays ACCEPTED before it is COMPLETED. */
  readonly payoutDelayMs?: number;
  /** Failing calls per request id before SIM-FLAKY succeeds. */
  readonly flakyFailures?: number;
  readonly now?: () => number;
  /** Where POST /v1/incoming-transfers sends its signed notification, and with which secret. */
  readonly notify?: { readonly url: string; readonly secret: string };
}

interface CvuRequestRecord {
  readonly holderName: string;
  readonly firstSeen: number;
  calls: number;
}

/** Entity code of the simulated provider's CVUs. */
const SIMULATOR_ENTITY = '0000044';

/** A stable CVU per request id, so answers survive a simulator restart and repeat exactly. */
export function simulatedCvu(requestId: string): string {
  const digest = createHash('sha256').update(requestId).digest();
  return composeCvu(SIMULATOR_ENTITY, digest.readBigUInt64BE(0) % 10_000_000_000_000n);
}

/**
 * The banking provider's API, simulated: assigns valid CVUs after a delay, resolves and registers aliases, takes
 * payouts once per id, and fails on demand. Runs in the service's process in sandbox mode and standalone
 * (`npm run bank-simulator`); both speak real HTTP.
 */
export function createBankSimulator(options: BankSimulatorOptions = {}): Server {
  const delayMs = options.provisioningDelayMs ?? 500;
  const hangMs = options.hangMs ?? 30_000;
  const flakyFailures = options.flakyFailures ?? 2;
  const now = options.now ?? Date.now;
  const requests = new Map<string, CvuRequestRecord>();
  const hanging = new Set<NodeJS.Timeout>();
  const desks = [aliasDesk({ hangMs, hanging }), payoutDesk({ hangMs, payoutDelayMs: options.payoutDelayMs ?? 500, now, hanging })];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (req.method === 'GET' && url.pathname === '/health') return send(res, 200, { status: 'ok' });
    if (req.method === 'POST' && url.pathname === '/v1/incoming-transfers') return simulateIncomingTransfer(req, res);
    for (const desk of desks) if (await desk(req, res, url.pathname)) return;
    const match = /^\/v1\/cvu-requests\/([^/]+)$/.exec(url.pathname);
    if (!match || req.method !== 'PUT') return send(res, 404, { error: 'not found' });
    const requestId = decodeURIComponent(match[1]);
    let body: { holderName?: unknown; holderTaxId?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return send(res, 400, { error: 'body must be JSON' });
    }
    if (typeof body.holderName !== 'string' || typeof body.holderTaxId !== 'string') {
      return send(res, 400, { error: 'holderName and holderTaxId are required' });
    }
    const record = requests.get(requestId) ?? { holderName: body.holderName, firstSeen: now(), calls: 0 };
    requests.set(requestId, record);
    record.calls++;
    const name = record.holderName;
    if (name.includes(MAGIC.DOWN)) return send(res, 503, { error: 'provider down (simulated)' });
    if (name.includes(MAGIC.TIMEOUT)) return answerLate(hanging, hangMs, () => send(res, 200, { requestId, state: 'PENDING' }));
    if (name.includes(MAGIC.FLAKY) && record.calls <= flakyFailures) return send(res, 503, { error: 'temporarily unavailable (simulated)' });
    if (name.includes(MAGIC.REJECT)) return send(res, 200, { requestId, state: 'REJECTED', reason: 'holder rejected by compliance (simulated)' });
    if (now() - record.firstSeen < delayMs) return send(res, 200, { requestId, state: 'PENDING' });
    const cvu = name.includes(MAGIC.INVALID) ? '0000044000000000000000' : simulatedCvu(requestId);
    return send(res, 200, { requestId, state: 'ASSIGNED', cvu });
  }

  /** A payer's transfer arriving on a CVU: the simulator notifies the service as the real provider would. */
  async function simulateIncomingTransfer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!options.notify) return send(res, 409, { error: 'no notification target configured (BANK_SIMULATOR_NOTIFY_URL)' });
    const body = JSON.parse(await readBody(req)) as Omit<IncomingTransferNotification, 'notificationId' | 'currencyCode'> & { notificationId?: string };
    const notification = { notificationId: body.notificationId ?? `sim-${randomUUID()}`, currencyCode: 'ARS', ...body } as IncomingTransferNotification;
    const answer = await sendIncomingTransfer(options.notify.url, options.notify.secret, notification);
    send(res, answer.status, { notificationId: notification.notificationId, service: await answer.json().catch(() => null) });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: 'simulator failure' }));
  });
  server.on('close', () => hanging.forEach(clearTimeout));
  return server;
}

/** Starts a simulator on 127.0.0.1 (port 0: any free port) and returns its base URL. */
export async function startBankSimulator(port: number, options: BankSimulatorOptions = {}): Promise<{ url: string; server: Server; stop(): Promise<void> }> {
  const server = createBankSimulator(options);
  await new Promise<void>((resolve, reject) => server.listen(port, '127.0.0.1', resolve).once('error', reject));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
