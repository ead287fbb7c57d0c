import { ProviderError, type AliasRegistration, type BankProvider } from '../../bank/bank-provider';
import type { Clock } from '../../shared/clock';
import { ConcurrentModificationError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';

type ClaimScope = Pick<TransactionScope, 'receivableAccounts'>;

/** Another request or provisioning pass is changing the account's alias: 409 concurrent-modification. */
export class AliasChangeHeld extends ConcurrentModificationError {}

/**
 * A claim of an account's alias change: ended in the transaction that stores the alias (which fails if it was lost),
 * renewed before each further provider call (false once lost: the change that took it decides the alias).
 */
export interface AliasClaim {
  end(tx: ClaimScope): Promise<void>;
  renew(): Promise<boolean>;
  /**
   * The stored alias registered back for the account's CVU, while the claim is still this change's. One the
   * provider did not take (no answer, or another account's now) leaves the claim ended at once for the
   * reconciliation (AliasRegistrar.reconcile) instead of deleted: the provider may name another alias for the CVU.
   */
  restore(): Promise<void>;
}

/** What reconciling an abandoned change found: the stored alias named for the CVU again (or none stored), held by another account at the provider, or no answer (tried again later). */
export type AliasReconciliation = 'restored' | 'taken' | 'failed';

/**
 * Gives an account a new alias at the banking provider, then here: the provider keeps one alias per CVU, and this
 * service resolves its own accounts' aliases first, so an alias stored here that the provider does not name for the
 * account could be another bank's account's, and payments meant for that account would reach this one. So one
 * change of an account's alias runs at a time, PUT or provisioning (a claim, not a transaction: none stays open
 * across the calls), lasting longer than the calls it makes; when the change fails, the alias stored is registered
 * back. A change that dies between registering and storing, or whose alias could not be registered back, leaves its
 * claim behind, and the reconciliation registers the stored alias again once the claim's time has passed.
 */
export class AliasRegistrar {
  constructor(
    private readonly bank: BankProvider,
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
    private readonly claimMs: number,
  ) {}

  /**
   * `work` under the account's claim (AliasChangeHeld while another stands); if it fails, the stored alias is
   * registered back while the claim is still this change's (lost, the change that took it decides the alias).
   */
  async claimed<T>(accountId: number, work: (claim: AliasClaim) => Promise<T>): Promise<T> {
    const claim = await this.claim(accountId);
    try {
      return await work(claim);
    } catch (error) {
      // The caller is answered with what failed.
      await claim.restore();
      throw error;
    } finally {
      await claim.release();
    }
  }

  /**
   * An account whose alias change was abandoned (its claim's time passed): the alias stored for it registered again
   * for its CVU, under a claim of its own, so that the provider and this service name the same alias for it.
   * AliasChangeHeld when a change took the claim first: that change decides the alias.
   */
  async reconcile(accountId: number): Promise<AliasReconciliation> {
    const claim = await this.claim(accountId);
    try {
      const registered = await this.registerStored(accountId);
      if (registered === undefined) await claim.leave();
      return registered === undefined ? 'failed' : registered ? 'restored' : 'taken';
    } finally {
      await claim.release();
    }
  }

  /**
   * True once the provider names the alias for the CVU, false when another account holds it, at any bank. A provider
   * that gave no answer may have registered it all the same: then its directory names the CVU.
   */
  async register(registration: AliasRegistration): Promise<boolean> {
    try {
      return (await this.bank.registerAlias(registration)) === 'REGISTERED';
    } catch (error) {
      if (error instanceof ProviderError && (await this.names(registration))) return true;
      throw error;
    }
  }

  /** Whether the provider names the stored alias for the account's CVU now (true when none is stored); undefined when it did not answer. */
  private async registerStored(accountId: number): Promise<boolean | undefined> {
    const stored = (await this.uow.run((tx) => tx.receivableAccounts.get(accountId)))?.toSnapshot();
    if (!stored?.alias || !stored.cvu) return true;
    return this.register({ alias: stored.alias, cbuCvu: stored.cvu }).catch(() => undefined);
  }

  private async claim(accountId: number): Promise<HeldClaim> {
    const token = globalThis.crypto.randomUUID();
    const now = this.clock.now();
    if (!(await this.uow.run((tx) => tx.receivableAccounts.claimAliasChange(accountId, token, now, new Date(now.getTime() + this.claimMs))))) {
      throw new AliasChangeHeld('receivable account', accountId);
    }
    return new HeldClaim({ accountId, token, claimMs: this.claimMs }, this.uow, this.clock, () => this.registerStored(accountId));
  }

  private async names({ alias, cbuCvu }: AliasRegistration): Promise<boolean> {
    return (await this.bank.resolveAlias(alias).catch(() => undefined))?.cbuCvu === cbuCvu;
  }
}

class HeldClaim implements AliasClaim {
  /** Ended at once instead of deleted: the reconciliation takes it over. */
  private left = false;

  constructor(
    private readonly held: { readonly accountId: number; readonly token: string; readonly claimMs: number },
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
    private readonly registerStored: () => Promise<boolean | undefined>,
  ) {}

  async end(tx: ClaimScope): Promise<void> {
    const { accountId, token } = this.held;
    if (!(await tx.receivableAccounts.endAliasChange(accountId, token))) throw new AliasChangeHeld('receivable account', accountId);
  }

  renew(): Promise<boolean> {
    return this.extendBy(this.held.claimMs);
  }

  async restore(): Promise<void> {
    if (!(await this.renew().catch(() => false))) return;
    if ((await this.registerStored()) !== true) await this.leave();
  }

  /** The claim ended now, left in place: the next claim of the account takes it (the reconciliation's, or a change's). */
  async leave(): Promise<void> {
    this.left = await this.extendBy(0).catch(() => false);
  }

  /** Deleted unless left: a claim that cannot be deleted (no database) ends with its time, for the reconciliation. */
  async release(): Promise<void> {
    const { accountId, token } = this.held;
    if (!this.left) await this.uow.run((tx) => tx.receivableAccounts.endAliasChange(accountId, token)).catch(() => undefined);
  }

  private extendBy(ms: number): Promise<boolean> {
    const { accountId, token } = this.held;
    const at = this.clock.now();
    return this.uow.run((tx) => tx.receivableAccounts.extendAliasChange(accountId, token, at, new Date(at.getTime() + ms)));
  }
}
