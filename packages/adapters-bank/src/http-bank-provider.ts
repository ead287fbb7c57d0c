import http from 'node:http';
import https from 'node:https';
import {
  ProviderError,
  type AliasRegistration,
  type AliasRegistrationState,
  type AliasResolution,
  type BankProvider,
  type CvuRequest,
  type CvuRequestState,
  type PayoutRecord,
  type PayoutRequest,
} from '@rcs/domain';

export interface HttpBankProviderOptions {
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** Per attempt. */
  readonly timeoutMs?: number;
  /** Attempts per call, the first included. */
  readonly attempts?: number;
  /** First backoff; doubles per retry, with +-50% jitter. */
  readonly backoffMs?: number;
  readonly random?: () => number;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF_MS = 200;

/**
 * The longest one call of an HttpBankProvider so configured can take: every attempt timing out, with the longest
 * backoffs (+50 % jitter) between them. A payout's lease must outlast two of them (PayoutPolicy.leaseMs).
 */
export function longestCallMs(options: Pick<HttpBankProviderOptions, 'timeoutMs' | 'attempts' | 'backoffMs'>): number {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const backoffs = Array.from({ length: attempts - 1 }, (_, i) => (options.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** i * 1.5);
  return (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) * attempts + backoffs.reduce((sum, ms) => sum + ms, 0);
}

/** What went wrong on one attempt; retryable unless the provider said our request itself is wrong. */
class AttemptFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'unavailable' | 'refused',
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

/** The provider's 404 on a lookup: what was asked for does not exist there. */
const NOT_FOUND = Symbol('not found');
/** The provider's 409 on a registration: what was asked for is another's. */
const CONFLICT = Symbol('conflict');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Client of the banking provider's API (protocol in this package's README). Each call retries a few times
 * within itself (timeouts, 429, 5xx, refused connections); what still fails becomes 504
 * external-provider-timeout or 502 external-provider-unavailable with providerError {code, detail}.
 */
export class HttpBankProvider implements BankProvider {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly random: () => number;
  /**
   * Connections kept open between calls (node:http, not fetch): a payout run makes thousands of calls, and a fresh
   * fetch per call cost about three times the CPU of a request on a kept-alive socket here.
   */
  private readonly agent: http.Agent;

  constructor(private readonly options: HttpBankProviderOptions) {
    this.agent = options.baseUrl.startsWith('https:') ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.random = options.random ?? Math.random;
  }

  async requestCvu(request: CvuRequest): Promise<CvuRequestState> {
    const body = await this.call('PUT', `/v1/cvu-requests/${encodeURIComponent(request.requestId)}`, {
      holderName: request.holderName,
      holderTaxId: request.holderTaxId,
      currencyCode: request.currencyCode,
    });
    return parseCvuState(body);
  }

  async resolveAlias(alias: string): Promise<AliasResolution | undefined> {
    const body = await this.call('GET', `/v1/aliases/${encodeURIComponent(alias)}`, undefined, { notFound: true });
    return body === NOT_FOUND ? undefined : parseAliasResolution(body);
  }

  /** PUT under the alias: asking again for the same CVU is answered the same; 409 when another account holds it. */
  async registerAlias(registration: AliasRegistration): Promise<AliasRegistrationState> {
    const body = await this.call('PUT', `/v1/aliases/${encodeURIComponent(registration.alias)}`, { cbuCvu: registration.cbuCvu }, { conflict: true });
    if (body === CONFLICT) return 'TAKEN';
    // Only the provider's word that the alias names our CVU makes it ours.
    if ((body as { cbuCvu?: unknown } | null)?.cbuCvu !== registration.cbuCvu) throw badResponse('alias registration naming another CBU/CVU, or none');
    return 'REGISTERED';
  }

  /** PUT under the payout's id: retrying it within the call (or after a crash) is safe, the provider pays once. */
  async sendPayout(request: PayoutRequest): Promise<PayoutRecord> {
    const body = await this.call('PUT', `/v1/payouts/${encodeURIComponent(request.payoutId)}`, {
      // A string of minor units: exact at any size, never a binary fraction.
      amountMinor: request.amountMinor.toString(),
      currencyCode: request.currencyCode,
      destination: { cbuCvu: request.destination.cbuCvu },
      ...(request.counterParty ? { counterParty: request.counterParty } : {}),
    });
    return parsePayoutRecord(body);
  }

  async getPayout(payoutId: string): Promise<PayoutRecord | undefined> {
    const body = await this.call('GET', `/v1/payouts/${encodeURIComponent(payoutId)}`, undefined, { notFound: true });
    return body === NOT_FOUND ? undefined : parsePayoutRecord(body);
  }

  /** `notFound`: a 404 is an answer (NOT_FOUND), not a refused request; `conflict` likewise a 409 (CONFLICT). */
  private async call(method: string, path: string, payload: unknown, options: { notFound?: boolean; conflict?: boolean } = {}): Promise<unknown> {
    let last: AttemptFailure | undefined;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        return await this.attempt(method, path, payload, options);
      } catch (error) {
        if (!(error instanceof AttemptFailure)) throw error;
        last = error;
        if (error.kind === 'refused' || attempt === this.attempts) break;
        await sleep(this.backoffMs * 2 ** (attempt - 1) * (0.5 + this.random()));
      }
    }
    const failure = last!;
    throw new ProviderError(failure.kind === 'timeout' ? 'external-provider-timeout' : 'external-provider-unavailable', {
      code: failure.code,
      detail: failure.message,
    });
  }

  private async attempt(method: string, path: string, payload: unknown, answers: { notFound?: boolean; conflict?: boolean }): Promise<unknown> {
    const { status, text } = await this.exchange(method, new URL(path, this.options.baseUrl), payload === undefined ? undefined : JSON.stringify(payload));
    if (answers.notFound && status === 404) return NOT_FOUND;
    if (answers.conflict && status === 409) return CONFLICT;
    if (status === 429 || status >= 500) {
      throw new AttemptFailure('unavailable', `HTTP_${status}`, `provider answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    if (status >= 400) {
      throw new AttemptFailure('refused', `HTTP_${status}`, `provider refused the request (${status})${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new AttemptFailure('unavailable', 'BAD_RESPONSE', 'provider answered with a body that is not JSON');
    }
  }

  /** One request and its whole answer within the timeout; not getting them is an AttemptFailure. */
  private exchange(method: string, url: URL, body: string | undefined): Promise<{ status: number; text: string }> {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
    };
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(url, { method, headers, agent: this.agent }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text });
        });
        response.on('error', () => undefined);
      });
      const timer = setTimeout(() => {
        request.destroy();
        reject(new AttemptFailure('timeout', 'TIMEOUT', `no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const code = error.code ?? 'NETWORK';
        reject(new AttemptFailure('unavailable', code, `could not reach the provider (${code})`));
      });
      request.end(body);
    });
  }
}

const badResponse = (detail: string) => new ProviderError('external-provider-unavailable', { code: 'BAD_RESPONSE', detail });

function parseCvuState(body: unknown): CvuRequestState {
  const b = body as { state?: unknown; cvu?: unknown; reason?: unknown };
  if (b?.state === 'PENDING') return { state: 'PENDING' };
  if (b?.state === 'ASSIGNED' && typeof b.cvu === 'string') return { state: 'ASSIGNED', cvu: b.cvu };
  if (b?.state === 'REJECTED') return { state: 'REJECTED', reason: typeof b.reason === 'string' ? b.reason : 'no reason given' };
  throw badResponse(`unexpected CVU request state ${JSON.stringify(b?.state)}`);
}

function parseAliasResolution(body: unknown): AliasResolution {
  const b = body as Partial<Record<keyof AliasResolution, unknown>>;
  if (typeof b?.alias !== 'string' || typeof b.cbuCvu !== 'string' || typeof b.entity !== 'string') {
    throw badResponse('alias resolution without alias, cbuCvu or entity');
  }
  const optional = (value: unknown) => (typeof value === 'string' ? value : null);
  return { alias: b.alias, cbuCvu: b.cbuCvu, holderName: optional(b.holderName), holderTaxId: optional(b.holderTaxId), entity: b.entity };
}

function parsePayoutRecord(body: unknown): PayoutRecord {
  const b = body as {
    payoutId?: unknown;
    amountMinor?: unknown;
    currencyCode?: unknown;
    destination?: { cbuCvu?: unknown };
    state?: unknown;
    reason?: unknown;
  };
  const cbuCvu = b?.destination?.cbuCvu;
  if (
    typeof b?.payoutId !== 'string' ||
    typeof b.amountMinor !== 'string' ||
    !/^\d+$/.test(b.amountMinor) ||
    typeof b.currencyCode !== 'string' ||
    typeof cbuCvu !== 'string'
  ) {
    throw badResponse('payout record without payoutId, amountMinor (digits), currencyCode or destination');
  }
  const base = { payoutId: b.payoutId, amountMinor: BigInt(b.amountMinor), currencyCode: b.currencyCode, destination: { cbuCvu } };
  if (b.state === 'ACCEPTED' || b.state === 'COMPLETED') return { ...base, state: b.state };
  if (b.state === 'REJECTED') return { ...base, state: 'REJECTED', reason: typeof b.reason === 'string' ? b.reason : 'no reason given' };
  throw badResponse(`unexpected payout state ${JSON.stringify(b.state)}`);
}
