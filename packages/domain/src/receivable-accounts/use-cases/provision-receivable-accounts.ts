import type { Clock } from '../../shared/clock';
import { isValidCbuCvu } from '../../shared/bank-account-number';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { ProviderError, type BankProvider, type CvuRequestState } from '../../bank/bank-provider';
import { aliasCandidates, unguessableAlias } from '../alias-template';
import { retryDelayMs, type ProvisioningPolicy } from '../provisioning-policy';
import type { ProvisioningClaim } from '../receivable-account-repository';
import type { ReceivableAccount } from '../receivable-account';
import { AliasChangeHeld, type AliasClaim, type AliasRegistrar } from './alias-registrar';
import { recordAccountEvent } from './record-account-event';

export type ProvisioningOutcome = 'activated' | 'pending' | 'retrying' | 'disabled' | 'skipped';

/** What a pass did: how many accounts ended each way, and the accounts whose answer could not be recorded. */
export interface ProvisioningPass {
  readonly outcomes: Record<ProvisioningOutcome, number>;
  /** Each is left PROVISIONING and tried again once its lease ends. */
  readonly failures: ReadonlyArray<{ readonly accountId: number; readonly error: unknown }>;
}

type Failed = { readonly state: 'FAILED'; readonly reason: string };
/** The provider's answer, and for an assigned CVU the alias registered for it there (not yet stored here). */
type Answer = Exclude<CvuRequestState, { state: 'ASSIGNED' }> | { readonly state: 'ASSIGNED'; readonly cvu: string; readonly alias: string } | Failed;

/** The provider's id for our CVU request: stable per account, so asking again is idempotent. */
export const cvuRequestId = (accountId: number) => `ra-${accountId}`;

/**
 * One pass of the provisioning worker: lease due PROVISIONING accounts, ask the provider for each outside any
 * transaction, then record each answer in a transaction of its own (ACTIVE with CVU and alias, a later retry, or
 * DISABLED once retries are exhausted or the provider refuses), with its event.
 */
export class ProvisionReceivableAccounts {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts' | 'outbox'>>,
    private readonly clock: Clock,
    private readonly bank: BankProvider,
    private readonly policy: ProvisioningPolicy,
    private readonly aliases: AliasRegistrar,
  ) {}

  async execute(input: { limit: number }): Promise<ProvisioningPass> {
    const now = this.clock.now();
    const claims = await this.uow.run((tx) => tx.receivableAccounts.claimForProvisioning(now, new Date(now.getTime() + this.policy.leaseMs), input.limit));
    // Each account on its own: one whose answer cannot be recorded must not cost the others theirs.
    const settled = await Promise.allSettled(claims.map((claim) => this.provision(claim)));
    const outcomes: Record<ProvisioningOutcome, number> = { activated: 0, pending: 0, retrying: 0, disabled: 0, skipped: 0 };
    const failures: Array<ProvisioningPass['failures'][number]> = [];
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') outcomes[result.value]++;
      else failures.push({ accountId: claims[i].account.id, error: result.reason });
    });
    return { outcomes, failures };
  }

  private async provision(claim: ProvisioningClaim): Promise<ProvisioningOutcome> {
    const asked = await this.ask(claim);
    if (asked.state !== 'ASSIGNED') return this.record(claim, asked);
    const { cvu } = asked;
    try {
      // Under the account's alias claim, as a PUT's change: a pass whose lease ran out while it waited on the
      // provider does not register its alias over the one a later pass, or a PUT since, gave the account.
      return await this.aliases.claimed(claim.account.id, async (aliasClaim) => {
        const outcome = await this.record(claim, await this.withAlias(claim, cvu, aliasClaim), aliasClaim);
        // No longer PROVISIONING (disabled, or activated by a pass that took this one's claim once it ran out): the
        // alias this pass registered is not stored; its claim is kept for the reconciliation, which registers the
        // stored one, if any, again.
        if (outcome === 'skipped') await aliasClaim.abandon();
        return outcome;
      });
    } catch (error) {
      if (error instanceof AliasChangeHeld) return 'skipped';
      throw error;
    }
  }

  /** The answer recorded, with its event, unless the account is no longer PROVISIONING (someone else's move stands). */
  private record(claim: ProvisioningClaim, answer: Answer, aliasClaim?: AliasClaim): Promise<ProvisioningOutcome> {
    return this.uow.run(async (tx) => {
      const current = await tx.receivableAccounts.getForUpdate(claim.account.id);
      if (!current || current.status !== 'PROVISIONING') return 'skipped';
      if (answer.state === 'ASSIGNED') await aliasClaim?.end(tx);
      const [next, outcome] = await this.decide(tx, current, answer);
      await tx.receivableAccounts.update(next);
      await recordAccountEvent(tx, next);
      return outcome;
    });
  }

  private async ask(claim: ProvisioningClaim): Promise<CvuRequestState | Failed> {
    try {
      const answer = await this.bank.requestCvu({
        requestId: cvuRequestId(claim.account.id),
        holderName: claim.holderName,
        holderTaxId: claim.holderTaxId,
        currencyCode: claim.account.toSnapshot().currencyCode,
      });
      if (answer.state === 'ASSIGNED' && !isValidCbuCvu(answer.cvu)) return { state: 'FAILED', reason: `provider returned an invalid CVU "${answer.cvu}"` };
      return answer;
    } catch (error) {
      return failed(error);
    }
  }

  /**
   * The assigned CVU with the first of the account's candidate aliases that no account here holds and the provider
   * registers for it: an alias an account at any bank holds is never ours (payments to it would reach us).
   */
  private async withAlias(claim: ProvisioningClaim, cvu: string, aliasClaim: AliasClaim): Promise<Answer> {
    const { account, aliasTemplate } = claim;
    for (const alias of [...aliasCandidates(aliasTemplate, account.id), unguessableAlias(account.id)]) {
      if (await this.uow.run((tx) => tx.receivableAccounts.aliasInUse(alias, account.id))) continue;
      // Each candidate may take a whole provider call: the claim is renewed for it, or the pass stops (skipped).
      if (!(await aliasClaim.renew())) throw new AliasChangeHeld('receivable account', account.id);
      // The provider's failure is the attempt's (retried, counted); the database's fails the pass for this account.
      const registered = await aliasClaim.register({ alias, cbuCvu: cvu }).catch((error: unknown) => failed(error));
      if (registered === true) return { state: 'ASSIGNED', cvu, alias };
      if (registered !== false) return registered;
    }
    // The provider keeps the CVU under our request id: a later attempt gets it back, and the attempts run out.
    return { state: 'FAILED', reason: `every alias template ${aliasTemplate} or the fallback gives account ${account.id} is held by another account` };
  }

  private async decide(
    tx: Pick<TransactionScope, 'receivableAccounts'>,
    current: ReceivableAccount,
    answer: Answer,
  ): Promise<[ReceivableAccount, ProvisioningOutcome]> {
    const now = this.clock.now();
    const at = (delayMs: number) => new Date(now.getTime() + delayMs);
    switch (answer.state) {
      case 'ASSIGNED':
        // Taken here since it was registered (a PUT of another account): the next attempt registers another.
        if (await tx.receivableAccounts.aliasInUse(answer.alias, current.id)) return this.fail(current, `alias ${answer.alias} was taken meanwhile`, now);
        return [current.assignCvu(answer.cvu, answer.alias, now), 'activated'];
      case 'PENDING':
        return [current.retryProvisioning(at(this.policy.pendingPollMs), null, now), 'pending'];
      case 'REJECTED':
        return [current.rejectProvisioning(answer.reason, now), 'disabled'];
      case 'FAILED':
        return this.fail(current, answer.reason, now);
    }
  }

  /** A failed attempt: counted, retried after a growing delay, DISABLED once the policy allows no more. */
  private fail(current: ReceivableAccount, reason: string, now: Date): [ReceivableAccount, ProvisioningOutcome] {
    const attempts = current.toSnapshot().provisioning.attempts + 1;
    if (attempts >= this.policy.maxAttempts) return [current.giveUpProvisioning(reason, now), 'disabled'];
    return [current.retryProvisioning(new Date(now.getTime() + retryDelayMs(this.policy, attempts)), reason, now), 'retrying'];
  }
}

/** A provider call that gave no answer: the attempt failed, and is retried as the policy says. */
function failed(error: unknown): Failed {
  if (error instanceof ProviderError) return { state: 'FAILED', reason: `${error.providerError.code}: ${error.providerError.detail}` };
  return { state: 'FAILED', reason: `unexpected provider client error: ${(error as Error).message}` };
}
