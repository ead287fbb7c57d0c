import { DomainError } from '../shared/domain-error';

export interface CvuRequest {
  /** Our idempotency key at the provider: asking again with the same id returns the same CVU. */
  readonly requestId: string;
  readonly holderName: string;
  readonly holderTaxId: string;
  readonly currencyCode: string;
}

export type CvuRequestState =
  /** Accepted; the CVU is not assigned yet. Ask again later. */
  | { readonly state: 'PENDING' }
  | { readonly state: 'ASSIGNED'; readonly cvu: string }
  /** Permanent refusal: asking again will not change it. */
  | { readonly state: 'REJECTED'; readonly reason: string };

/** Who holds the account an alias names, as the provider reports it. */
export interface AliasResolution {
  readonly alias: string;
  readonly cbuCvu: string;
  readonly holderName: string | null;
  readonly holderTaxId: string | null;
  /** The bank or wallet that keeps the account. */
  readonly entity: string;
}

/** An alias asked for one of our CVUs (one alias per CVU: registering another releases the one it had). */
export interface AliasRegistration {
  readonly alias: string;
  readonly cbuCvu: string;
}

/** REGISTERED: the alias now names that CVU (it was free, or named it already); TAKEN: another account holds it. */
export type AliasRegistrationState = 'REGISTERED' | 'TAKEN';

export interface PayoutRequest {
  /** Our idempotency key at the provider (the transfer's id): sending it again never pays again. */
  readonly payoutId: string;
  readonly amountMinor: bigint;
  readonly currencyCode: string;
  readonly destination: { readonly cbuCvu: string };
  readonly counterParty?: { readonly name: string; readonly taxId: string };
}

export type PayoutState =
  /** Taken by the provider; the money is on its way. Ask again (getPayout) for the outcome. */
  | { readonly state: 'ACCEPTED' }
  | { readonly state: 'COMPLETED' }
  /** Permanent refusal (a closed or blocked destination): no money left. */
  | { readonly state: 'REJECTED'; readonly reason: string };

/** The provider's record of a payout: what it was asked to pay under the id, and where it stands. */
export type PayoutRecord = PayoutState & {
  readonly payoutId: string;
  readonly amountMinor: bigint;
  readonly currencyCode: string;
  readonly destination: { readonly cbuCvu: string };
};

/**
 * The banking provider: issues CVUs, resolves aliases, sends payouts. Every failure to get an answer is a
 * ProviderError (502/504); answers the provider gives (REJECTED, unknown alias) are values.
 */
export interface BankProvider {
  requestCvu(request: CvuRequest): Promise<CvuRequestState>;
  /** The account behind an alias (any letter case), or undefined when no account has it. */
  resolveAlias(alias: string): Promise<AliasResolution | undefined>;
  /**
   * Registers an alias for one of our CVUs, in any letter case, as the account directory every bank answers from
   * knows it: an alias is one account's, here or at any bank, so an account of ours is never given one that names
   * another account (whose payments would then reach ours).
   */
  registerAlias(registration: AliasRegistration): Promise<AliasRegistrationState>;
  /**
   * Asks the provider to pay. The same payoutId sent again (a retry, a worker that crashed) is answered with the
   * payout's record and never pays twice, whatever the second request says.
   */
  sendPayout(request: PayoutRequest): Promise<PayoutRecord>;
  /** The provider's record of a payout, or undefined when it never took one under that id (safe to send it). */
  getPayout(payoutId: string): Promise<PayoutRecord | undefined>;
}

export interface ProviderErrorDetail {
  readonly code: string;
  readonly detail: string;
}

/** The provider did not answer usefully: 502 external-provider-unavailable or 504 external-provider-timeout. */
export class ProviderError extends DomainError {
  constructor(
    code: 'external-provider-unavailable' | 'external-provider-timeout',
    readonly providerError: ProviderErrorDetail,
  ) {
    super(code, `banking provider: ${providerError.detail}`, { providerError });
  }
}
