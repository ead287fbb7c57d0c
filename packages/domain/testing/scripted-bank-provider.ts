import { composeCvu, ProviderError, type BankProvider, type CvuRequest, type CvuRequestState } from '../src';

type Step = CvuRequestState | 'down' | 'timeout';

/**
 * A provider that answers from a script, for use-case tests: each request id gets the queued steps in order,
 * then ASSIGNED with a CVU derived from the request number.
 */
export class ScriptedBankProvider implements BankProvider {
  readonly requests: CvuRequest[] = [];
  private readonly scripts = new Map<string, Step[]>();

  script(requestId: string, ...steps: Step[]): void {
    this.scripts.set(requestId, steps);
  }

  async requestCvu(request: CvuRequest): Promise<CvuRequestState> {
    this.requests.push(request);
    const step = this.scripts.get(request.requestId)?.shift();
    if (step === 'down') throw new ProviderError('external-provider-unavailable', { code: 'HTTP_503', detail: 'service unavailable' });
    if (step === 'timeout') throw new ProviderError('external-provider-timeout', { code: 'TIMEOUT', detail: 'no answer in time' });
    if (step) return step;
    return { state: 'ASSIGNED', cvu: composeCvu('0000044', BigInt(request.requestId.replace(/\D/g, '') || '0')) };
  }
}
