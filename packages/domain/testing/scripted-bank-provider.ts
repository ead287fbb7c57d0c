import {
  composeCvu,
  ProviderError,
  type AliasRegistration,
  type AliasRegistrationState,
  type AliasResolution,
  type BankProvider,
  type CvuRequest,
  type CvuRequestState,
  type PayoutRecord,
  type PayoutRequest,
  type PayoutState,
} from '../src';

type Step = CvuRequestState | 'down' | 'timeout';
/** 'late': the provider takes the payout but its answer never arrives (the caller sees a timeout). */
type PayoutStep = PayoutState | 'down' | 'timeout' | 'late';

const down = () => new ProviderError('external-provider-unavailable', { code: 'HTTP_503', detail: 'service unavailable' });
const timeout = () => new ProviderError('external-provider-timeout', { code: 'TIMEOUT', detail: 'no answer in time' });

/**
 * A provider that answers from a script, for use-case tests: each CVU request id gets the queued steps in order,
 * then ASSIGNED with a CVU derived from the request number; aliases resolve once scripted (another account's) or
 * registered for one of ours; payouts to a destination follow its script, else complete, and are kept by payoutId
 * like the real provider keeps them.
 */
export class ScriptedBankProvider implements BankProvider {
  readonly requests: CvuRequest[] = [];
  /** Payouts the provider took, by payoutId: what was paid, once each. */
  readonly payouts = new Map<string, PayoutRecord>();
  private readonly scripts = new Map<string, Step[]>();
  private readonly aliases = new Map<string, AliasResolution | 'down' | 'timeout'>();
  /** Aliases registered for our CVUs, by alias in lower case, and the alias each CVU holds. */
  private readonly registered = new Map<string, string>();
  private readonly aliasOfCvu = new Map<string, string>();
  private readonly payoutScripts = new Map<string, PayoutStep[]>();

  script(requestId: string, ...steps: Step[]): void {
    this.scripts.set(requestId, steps);
  }

  /** How the provider answers for `alias`, in any letter case. */
  scriptAlias(alias: string, answer: AliasResolution | 'down' | 'timeout'): void {
    this.aliases.set(alias.toLowerCase(), answer);
  }

  /** The next payouts to `cbuCvu` get these steps in order, then complete. */
  scriptPayout(cbuCvu: string, ...steps: PayoutStep[]): void {
    this.payoutScripts.set(cbuCvu, steps);
  }

  async requestCvu(request: CvuRequest): Promise<CvuRequestState> {
    this.requests.push(request);
    const step = this.scripts.get(request.requestId)?.shift();
    if (step === 'down') throw down();
    if (step === 'timeout') throw timeout();
    if (step) return step;
    return { state: 'ASSIGNED', cvu: composeCvu('0000044', BigInt(request.requestId.replace(/\D/g, '') || '0')) };
  }

  async resolveAlias(alias: string): Promise<AliasResolution | undefined> {
    const ours = this.registered.get(alias.toLowerCase());
    if (ours) return { alias, cbuCvu: ours, holderName: null, holderTaxId: null, entity: 'Scripted provider' };
    const answer = this.aliases.get(alias.toLowerCase());
    if (answer === 'down') throw down();
    if (answer === 'timeout') throw timeout();
    return answer;
  }

  /** A scripted alias is another account's (TAKEN), as is one registered for another CVU; 'down' and 'timeout' fail. */
  async registerAlias({ alias, cbuCvu }: AliasRegistration): Promise<AliasRegistrationState> {
    const word = alias.toLowerCase();
    const scripted = this.aliases.get(word);
    if (scripted === 'down') throw down();
    if (scripted === 'timeout') throw timeout();
    const holder = this.registered.get(word) ?? scripted?.cbuCvu;
    if (holder !== undefined && holder !== cbuCvu) return 'TAKEN';
    const previous = this.aliasOfCvu.get(cbuCvu);
    if (previous !== undefined) this.registered.delete(previous);
    this.registered.set(word, cbuCvu);
    this.aliasOfCvu.set(cbuCvu, word);
    return 'REGISTERED';
  }

  async sendPayout(request: PayoutRequest): Promise<PayoutRecord> {
    const known = this.payouts.get(request.payoutId);
    if (known) return known;
    const step = this.payoutScripts.get(request.destination.cbuCvu)?.shift() ?? { state: 'COMPLETED' };
    if (step === 'down') throw down();
    if (step === 'timeout') throw timeout();
    const taken = { state: 'COMPLETED' as const };
    const record: PayoutRecord = {
      ...(step === 'late' ? taken : step),
      payoutId: request.payoutId,
      amountMinor: request.amountMinor,
      currencyCode: request.currencyCode,
      destination: { cbuCvu: request.destination.cbuCvu },
    };
    this.payouts.set(request.payoutId, record);
    if (step === 'late') throw timeout();
    return record;
  }

  async getPayout(payoutId: string): Promise<PayoutRecord | undefined> {
    return this.payouts.get(payoutId);
  }
}
