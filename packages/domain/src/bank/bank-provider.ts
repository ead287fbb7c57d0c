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

/** The banking provider that issues CVUs (and, with later issues, resolves aliases and sends payouts). */
export interface BankProvider {
  requestCvu(request: CvuRequest): Promise<CvuRequestState>;
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
