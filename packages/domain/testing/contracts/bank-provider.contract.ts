import { composeCvu, isValidCbuCvu, ProviderError, type BankProvider, type CvuRequest, type PayoutRequest } from '../../src';

/** How the provider under contract will treat a request: each adapter arranges it its own way. */
export type ProviderBehaviour = 'assigns' | 'rejects' | 'is-down' | 'times-out';
/** 'free': a new alias no account holds, each time asked. */
export type AliasBehaviour = 'resolves' | 'unknown' | 'free' | 'is-down' | 'times-out';
/** 'answers-late': the provider takes the payout, but its answer comes after the caller gave up. */
export type PayoutBehaviour = 'completes' | 'rejects' | 'is-down' | 'times-out' | 'answers-late';

/** What an adapter under the bank provider contract offers; each adapter's test file builds one. */
export interface BankProviderHarness {
  readonly provider: BankProvider;
  /** A new request (its own request id) that the provider will treat as `behaviour` says. */
  request(behaviour: ProviderBehaviour): CvuRequest;
  /** An alias, in the letter case the provider knows it, that the provider will treat as `behaviour` says. */
  alias(behaviour: AliasBehaviour): string;
  /** A new payout (its own id) whose destination the provider will treat as `behaviour` says. */
  payout(behaviour: PayoutBehaviour): PayoutRequest;
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
      expectDown(await failureOf(h.provider.requestCvu(h.request('is-down'))));
    });

    it('reports a provider that does not answer in time as external-provider-timeout', async () => {
      expectTimeout(await failureOf(h.provider.requestCvu(h.request('times-out'))));
    });

    aliasContract(() => h);
    payoutContract(() => h);
  });
}

const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.catch((e: unknown) => e);

function expectDown(error: unknown): void {
  expect(error).toBeInstanceOf(ProviderError);
  expect(error).toMatchObject({ code: 'external-provider-unavailable', providerError: { code: 'HTTP_503', detail: expect.any(String) } });
}

function expectTimeout(error: unknown): void {
  expect(error).toBeInstanceOf(ProviderError);
  expect(error).toMatchObject({ code: 'external-provider-timeout', providerError: { code: 'TIMEOUT', detail: expect.any(String) } });
}

/** What saving a recipient by alias relies on. */
function aliasContract(harness: () => BankProviderHarness): void {
  describe('alias resolution', () => {
    it('resolves an alias to a valid CBU/CVU and the entity that keeps it', async () => {
      const alias = harness().alias('resolves');
      const resolution = await harness().provider.resolveAlias(alias);
      expect(resolution).toMatchObject({ alias, entity: expect.any(String) });
      expect(isValidCbuCvu(resolution!.cbuCvu)).toBe(true);
    });

    it('resolves an alias written in another letter case to the same account', async () => {
      const alias = harness().alias('resolves');
      const [lower, upper] = [await harness().provider.resolveAlias(alias.toLowerCase()), await harness().provider.resolveAlias(alias.toUpperCase())];
      expect(lower?.cbuCvu).toBe(upper?.cbuCvu);
    });

    it('answers undefined for an alias no account has', async () => {
      expect(await harness().provider.resolveAlias(harness().alias('unknown'))).toBeUndefined();
    });

    it('reports a provider that is down or slow while resolving as 502 or 504', async () => {
      expectDown(await failureOf(harness().provider.resolveAlias(harness().alias('is-down'))));
      expectTimeout(await failureOf(harness().provider.resolveAlias(harness().alias('times-out'))));
    });
  });

  /** What giving one of our accounts an alias relies on: no alias of another account is ever ours. */
  describe('alias registration', () => {
    const [ours, theirs] = [composeCvu('0000044', 901n), composeCvu('0000044', 902n)];
    const register = (alias: string, cbuCvu: string) => harness().provider.registerAlias({ alias, cbuCvu });

    it('registers a free alias for a CVU, which it then resolves to, and answers the same asked again in any letter case', async () => {
      const alias = harness().alias('free');
      expect(await register(alias, ours)).toBe('REGISTERED');
      expect((await harness().provider.resolveAlias(alias))?.cbuCvu).toBe(ours);
      expect(await register(alias.toUpperCase(), ours)).toBe('REGISTERED');
    });

    it("refuses (TAKEN) an alias another account holds: an outside account's, or one registered for another CVU", async () => {
      const outside = harness().alias('resolves');
      const elsewhere = (await harness().provider.resolveAlias(outside))!.cbuCvu;
      expect(await register(outside, ours)).toBe('TAKEN');
      expect((await harness().provider.resolveAlias(outside))?.cbuCvu).toBe(elsewhere);
      const alias = harness().alias('free');
      await register(alias, ours);
      expect(await register(alias.toUpperCase(), theirs)).toBe('TAKEN');
      expect((await harness().provider.resolveAlias(alias))?.cbuCvu).toBe(ours);
    });

    it('keeps one alias per CVU: registering another frees the first', async () => {
      const [first, second] = [harness().alias('free'), harness().alias('free')];
      await register(first, ours);
      await register(second, ours);
      expect(await register(first, theirs)).toBe('REGISTERED');
    });

    it('reports a provider that is down or slow while registering as 502 or 504', async () => {
      expectDown(await failureOf(register(harness().alias('is-down'), ours)));
      expectTimeout(await failureOf(register(harness().alias('times-out'), ours)));
    });
  });
}

/** What the transfer worker relies on: one payment per payoutId, and a record to reconcile with after a crash. */
function payoutContract(harness: () => BankProviderHarness): void {
  describe('payouts', () => {
    it('completes a payout and keeps its exact amount, even past what a double holds', async () => {
      const request = { ...harness().payout('completes'), amountMinor: 999_999_999_999_999_999n };
      const record = await harness().provider.sendPayout(request);
      expect(record).toEqual({
        state: 'COMPLETED',
        payoutId: request.payoutId,
        amountMinor: 999_999_999_999_999_999n,
        currencyCode: request.currencyCode,
        destination: { cbuCvu: request.destination.cbuCvu },
      });
      expect(await harness().provider.getPayout(request.payoutId)).toEqual(record);
    });

    it('answers a payout sent again under the same id with its first record, whatever the second says', async () => {
      const request = harness().payout('completes');
      const first = await harness().provider.sendPayout(request);
      const again = await harness().provider.sendPayout({ ...request, amountMinor: request.amountMinor + 100n });
      expect(again).toEqual(first);
      expect((await harness().provider.getPayout(request.payoutId))?.amountMinor).toBe(request.amountMinor);
    });

    it('knows nothing of a payout never sent', async () => {
      expect(await harness().provider.getPayout(harness().payout('completes').payoutId)).toBeUndefined();
    });

    it('passes a rejected destination through as REJECTED with its reason, and keeps that answer', async () => {
      const request = harness().payout('rejects');
      const record = await harness().provider.sendPayout(request);
      expect(record).toMatchObject({ state: 'REJECTED', reason: expect.any(String), payoutId: request.payoutId });
      expect(await harness().provider.getPayout(request.payoutId)).toEqual(record);
    });

    it.each([
      ['is down', 'is-down', expectDown],
      ['does not answer', 'times-out', expectTimeout],
    ] as const)('reports a provider that %s as 502/504 and takes nothing', async (_what, behaviour, expectFailure) => {
      const request = harness().payout(behaviour);
      expectFailure(await failureOf(harness().provider.sendPayout(request)));
      expect(await harness().provider.getPayout(request.payoutId)).toBeUndefined();
    });

    it('shows a payout whose answer came too late as taken, so the caller reconciles instead of paying again', async () => {
      const request = harness().payout('answers-late');
      expectTimeout(await failureOf(harness().provider.sendPayout(request)));
      expect(await harness().provider.getPayout(request.payoutId)).toMatchObject({
        state: 'COMPLETED',
        payoutId: request.payoutId,
        amountMinor: request.amountMinor,
      });
    });
  });
}
