import { ProviderError, type AliasRegistration, type BankProvider } from '../../bank/bank-provider';
import type { Clock } from '../../shared/clock';
import { ConcurrentModificationError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { unguessableAlias } from '../alias-template';
import type { ProvisioningPolicy } from '../provisioning-policy';

type ClaimScope = Pick<TransactionScope, 'receivableAccounts'>;
type ClaimPolicy = Pick<ProvisioningPolicy, 'aliasClaimMs' | 'aliasSettleMs'>;

/** Another request or provisioning pass is changing the account's alias: 409 concurrent-modification. */
export class AliasChangeHeld extends ConcurrentModificationError {}

/**
 * A claim of an account's alias change: ended in the transaction that stores the alias (which fails if it was lost),
 * renewed before each further provider call (false once lost: the change that took it decides the alias).
 */
export interface AliasClaim {
  /**
   * True once the provider names the alias for the CVU, false when another account holds it, at any bank. A provider
   * that gave no answer may have registered it all the same: then its directory names the CVU; else it throws, and
   * the claim remembers that the provider may still carry the registration out.
   */
  register(registration: AliasRegistration): Promise<boolean>;
  end(tx: ClaimScope): Promise<void>;
  renew(): Promise<boolean>;
  /**
   * The change stores no alias: the stored one is registered back for the account's CVU while the claim is still
   * this change's. The claim is deleted once that is done and every registration of the change had its answer;
   * else it is kept a while more (aliasSettleMs), so that a registration the provider carries out late lands first,
   * then the reconciliation (AliasRegistrar.reconcile) registers the stored alias again. A claim lost or run out is
   * kept as it is.
   */
  abandon(): Promise<void>;
}

/**
 * What reconciling an abandoned change did: the stored alias registered for the CVU again; nothing stored to
 * register; the stored alias, which another account holds at the provider now, replaced by a new one registered
 * for the CVU (or not: `taken`, tried again later); no answer from the provider (tried again later).
 */
export type AliasReconciliation =
  | { readonly outcome: 'restored' | 'none' | 'taken' }
  | { readonly outcome: 'failed'; readonly error: unknown }
  | { readonly outcome: 'replaced'; readonly previous: string; readonly alias: string };

/**
 * Gives an account a new alias at the banking provider, then here: the provider keeps one alias per CVU, and this
 * service resolves its own accounts' aliases first, so an alias stored here that the provider does not name for the
 * account could be another bank's account's, and payments meant for that account would reach this one. So one
 * change of an account's alias runs at a time, PUT or provisioning (a claim, not a transaction: none stays open
 * across the calls), lasting longer than the calls it makes. A change that stores its alias deletes its claim; one
 * that fails registers the stored alias back, and keeps its claim a while more unless both sides are known to agree;
 * one that dies leaves it standing until its time: the reconciliation then takes it and registers the stored alias
 * again.
 */
export class AliasRegistrar {
  constructor(
    private readonly bank: BankProvider,
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
    private readonly policy: ClaimPolicy,
  ) {}

  /** `work` under the account's claim (AliasChangeHeld while another stands); if it fails, the claim is abandoned. */
  async claimed<T>(accountId: number, work: (claim: AliasClaim) => Promise<T>): Promise<T> {
    const claim = await this.claim(accountId);
    let done: T;
    try {
      done = await work(claim);
    } catch (error) {
      // The caller is answered with what failed, whatever registering back meets.
      await claim.abandon();
      throw error;
    }
    await claim.release();
    return done;
  }

  /**
   * An account whose alias change was abandoned (its claim ended): under a claim of its own, the alias stored for it
   * registered again for its CVU, so that the provider and this service name the same alias for it. An alias another
   * account holds at the provider now is the other's for every payer but this service's customers: the account is
   * given a new one, as a last provisioning candidate is. AliasChangeHeld when a change took the claim first: that
   * change decides the alias. The claim is deleted only once the outcome is known; else kept for a later run.
   */
  async reconcile(accountId: number): Promise<AliasReconciliation> {
    const claim = await this.claim(accountId);
    try {
      const reconciled = await this.reconciled(accountId, claim);
      if (reconciled.outcome === 'failed' || reconciled.outcome === 'taken') await claim.leave();
      else await claim.release();
      return reconciled;
    } catch (error) {
      await claim.leave();
      throw error;
    }
  }

  private async reconciled(accountId: number, claim: HeldClaim): Promise<AliasReconciliation> {
    const stored = await this.stored(accountId);
    if (!stored) return { outcome: 'none' };
    const { alias: previous, cbuCvu: cvu } = stored;
    const registered = await claim.register(stored).catch((error: unknown) => ({ error }));
    if (registered !== false) return registered === true ? { outcome: 'restored' } : { outcome: 'failed', ...registered };
    // Renewed for the second call, or lost to a change, which decides the alias.
    if (!(await claim.renew())) throw new AliasChangeHeld('receivable account', accountId);
    const alias = unguessableAlias(accountId);
    const replaced = await claim.register({ alias, cbuCvu: cvu }).catch((error: unknown) => ({ error }));
    if (replaced !== true) return replaced === false ? { outcome: 'taken' } : { outcome: 'failed', ...replaced };
    await this.uow.run(async (tx) => {
      const current = await tx.receivableAccounts.getForUpdate(accountId);
      if (current?.toSnapshot().alias !== previous) throw new ConcurrentModificationError('receivable account', accountId);
      await claim.end(tx);
      await tx.receivableAccounts.update(current.replaceAlias(alias, this.clock.now()));
    });
    return { outcome: 'replaced', previous, alias };
  }

  /** The account's stored alias and CVU, if it has both. */
  private async stored(accountId: number): Promise<AliasRegistration | undefined> {
    const stored = (await this.uow.run((tx) => tx.receivableAccounts.get(accountId)))?.toSnapshot();
    return stored?.alias && stored.cvu ? { alias: stored.alias, cbuCvu: stored.cvu } : undefined;
  }

  private async claim(accountId: number): Promise<HeldClaim> {
    const token = globalThis.crypto.randomUUID();
    const now = this.clock.now();
    if (!(await this.uow.run((tx) => tx.receivableAccounts.claimAliasChange(accountId, token, now, new Date(now.getTime() + this.policy.aliasClaimMs))))) {
      throw new AliasChangeHeld('receivable account', accountId);
    }
    return new HeldClaim({ accountId, token, policy: this.policy }, this.bank, this.uow, this.clock, () => this.stored(accountId));
  }
}

class HeldClaim implements AliasClaim {
  /** Kept for the reconciliation: never deleted by this holder. */
  private kept = false;
  /** A registration the provider did not answer, and may carry out yet. */
  private unanswered = false;

  constructor(
    private readonly held: { readonly accountId: number; readonly token: string; readonly policy: ClaimPolicy },
    private readonly bank: BankProvider,
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
    private readonly stored: () => Promise<AliasRegistration | undefined>,
  ) {}

  async register(registration: AliasRegistration): Promise<boolean> {
    try {
      return (await this.bank.registerAlias(registration)) === 'REGISTERED';
    } catch (error) {
      if (error instanceof ProviderError && (await this.names(registration))) return true;
      this.unanswered = true;
      throw error;
    }
  }

  async end(tx: ClaimScope): Promise<void> {
    const { accountId, token } = this.held;
    if (!(await tx.receivableAccounts.endAliasChange(accountId, token))) throw new AliasChangeHeld('receivable account', accountId);
  }

  renew(): Promise<boolean> {
    return this.extendBy(this.held.policy.aliasClaimMs);
  }

  async abandon(): Promise<void> {
    this.kept = true;
    // Lost or run out (false), it is kept as it is: the change that took it decides the alias, or the reconciliation
    // takes it; a database that does not answer leaves it to end with its time, as a crash would.
    if (!(await this.renew().catch(() => false))) return;
    const stored = await this.stored().catch(() => null);
    const restored = stored === undefined || (stored !== null && (await this.register(stored).catch(() => false)));
    // Both sides are known to agree: nothing is left to reconcile.
    if (restored && !this.unanswered) await this.delete();
    else await this.leave();
  }

  /**
   * The claim kept, to end once a late registration would have landed (aliasSettleMs): then the next claim of the
   * account takes it (the reconciliation's, or a change's). A database that does not answer leaves it to its time.
   */
  async leave(): Promise<void> {
    this.kept = true;
    await this.extendBy(this.held.policy.aliasSettleMs).catch(() => undefined);
  }

  /**
   * The claim deleted, unless kept: the provider names the stored alias for the account's CVU, or none is stored.
   * Kept a while more (leave) when a registration of the change went unanswered, as when it fails: a provisioning
   * attempt that records its failure ends normally, and the provider may carry that registration out yet.
   */
  async release(): Promise<void> {
    if (this.unanswered) return this.leave();
    if (!this.kept) await this.delete();
  }

  private async delete(): Promise<void> {
    const { accountId, token } = this.held;
    await this.uow.run((tx) => tx.receivableAccounts.endAliasChange(accountId, token)).catch(() => undefined);
  }

  private extendBy(ms: number): Promise<boolean> {
    const { accountId, token } = this.held;
    const at = this.clock.now();
    return this.uow.run((tx) => tx.receivableAccounts.extendAliasChange(accountId, token, at, new Date(at.getTime() + ms)));
  }

  private async names({ alias, cbuCvu }: AliasRegistration): Promise<boolean> {
    return (await this.bank.resolveAlias(alias).catch(() => undefined))?.cbuCvu === cbuCvu;
  }
}
