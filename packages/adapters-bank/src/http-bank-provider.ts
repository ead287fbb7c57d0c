import { ProviderError, type BankProvider, type CvuRequest, type CvuRequestState } from '@rcs/domain';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Client of the banking provider's CVU API (protocol in this package's README). Each call retries a few times
 * within itself (timeouts, 429, 5xx, refused connections); what still fails becomes 504
 * external-provider-timeout or 502 external-provider-unavailable with providerError {code, detail}.
 */
export class HttpBankProvider implements BankProvider {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly random: () => number;

  constructor(private readonly options: HttpBankProviderOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.attempts = options.attempts ?? 3;
    this.backoffMs = options.backoffMs ?? 200;
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

  private async call(method: string, path: string, payload: unknown): Promise<unknown> {
    let last: AttemptFailure | undefined;
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        return await this.attempt(method, path, payload);
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

  private async attempt(method: string, path: string, payload: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.baseUrl), {
        method,
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new AttemptFailure('timeout', 'TIMEOUT', `no answer within ${this.timeoutMs} ms`);
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? 'NETWORK';
      throw new AttemptFailure('unavailable', cause, `could not reach the provider (${cause})`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 429 || response.status >= 500) {
      throw new AttemptFailure('unavailable', `HTTP_${response.status}`, `provider answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    if (response.status >= 400) {
      throw new AttemptFailure(
        'refused',
        `HTTP_${response.status}`,
        `provider refused the request (${response.status})${text ? `: ${text.slice(0, 200)}` : ''}`,
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new AttemptFailure('unavailable', 'BAD_RESPONSE', 'provider answered with a body that is not JSON');
    }
  }
}

function parseCvuState(body: unknown): CvuRequestState {
  const b = body as { state?: unknown; cvu?: unknown; reason?: unknown };
  if (b?.state === 'PENDING') return { state: 'PENDING' };
  if (b?.state === 'ASSIGNED' && typeof b.cvu === 'string') return { state: 'ASSIGNED', cvu: b.cvu };
  if (b?.state === 'REJECTED') return { state: 'REJECTED', reason: typeof b.reason === 'string' ? b.reason : 'no reason given' };
  throw new ProviderError('external-provider-unavailable', { code: 'BAD_RESPONSE', detail: `unexpected CVU request state ${JSON.stringify(b?.state)}` });
}
