import { isValidCbuCvu, ProviderError, type BankProvider, type CvuRequest } from '../../src';

/** How the provider under contract will treat a request: each adapter arranges it its own way. */
export type ProviderBehaviour = 'assigns' | 'rejects' | 'is-down' | 'times-out';

/** What an adapter under the bank provider contract offers; each adapter's test file builds one. */
export interface BankProviderHarness {
  readonly provider: BankProvider;
  /** A new request (its own request id) that the provider will treat as `behaviour` says. */
  request(behaviour: ProviderBehaviour): CvuRequest;
  /** Lets the time the provider takes to assign a CVU pass (its answers are PENDING until then). */
  elapse(): void;
  close(): Promise<void>;
}

/**
 * The one suite every BankProvider passes: the scripted fake the use-case tests use, and the HTTP client talking to
 * the simulator. What the provisioning worker relies on: one CVU per request id, however often it asks.
 */
export function bankProviderContract(factory: () => Promise<BankProviderHarness>): void {
  describe('bank provider', () => {
    let h: BankProviderHarness;
    beforeAll(async () => {
      h = await factory();
    });
    afterAll(() => h.close());

    /** Asks until the answer is not PENDING, letting the provider's time pass once. */
    const settled = async (request: CvuRequest) => {
      const first = await h.provider.requestCvu(request);
      if (first.state !== 'PENDING') return first;
      h.elapse();
      return h.provider.requestCvu(request);
    };

    it('assigns a CVU with valid check digits', async () => {
      const answer = await settled(h.request('assigns'));
      expect(answer.state).toBe('ASSIGNED');
      expect(isValidCbuCvu((answer as { cvu: string }).cvu)).toBe(true);
    });

    it('answers every later ask of the same request with the same CVU', async () => {
      const request = h.request('assigns');
      const assigned = await settled(request);
      expect(await h.provider.requestCvu(request)).toEqual(assigned);
      expect(await h.provider.requestCvu({ ...request })).toEqual(assigned);
    });

    it('assigns different requests different CVUs', async () => {
      const [one, two] = [await settled(h.request('assigns')), await settled(h.request('assigns'))];
      expect(one).not.toEqual(two);
    });

    it('passes a permanent refusal through as REJECTED with its reason', async () => {
      const answer = await settled(h.request('rejects'));
      expect(answer).toEqual({ state: 'REJECTED', reason: expect.any(String) });
    });

    it('reports a provider that is down as external-provider-unavailable with the provider error', async () => {
      const error = await h.provider.requestCvu(h.request('is-down')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'external-provider-unavailable', providerError: { code: 'HTTP_503', detail: expect.any(String) } });
    });

    it('reports a provider that does not answer in time as external-provider-timeout', async () => {
      const error = await h.provider.requestCvu(h.request('times-out')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'external-provider-timeout', providerError: { code: 'TIMEOUT', detail: expect.any(String) } });
    });
  });
}
