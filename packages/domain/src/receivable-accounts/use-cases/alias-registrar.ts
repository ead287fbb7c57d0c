import { ProviderError, type AliasRegistration, type BankProvider } from '../../bank/bank-provider';
import type { Clock } from '../../shared/clock';
import { ConcurrentModificationError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { unguessableAlias } from '../alias-template';

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
   * The change stores no alias: the stored one is registered back for the account's CVU while the claim is still
   * this change's, and the claim is left, ended, for the reconciliation (AliasRegistrar.reconcile) to register it
   * again a while later (a registration of this change's the provider carries out late) or when this one failed.
   */
  abandon(): Promise<void>;
}

/**
 * What reconciling an abandoned change did: the stored alias registered for the CVU again; nothing stored to
 * register; the stored alias, which another account holds at the provider now, replaced by a new one registered
 * for the CVU (or not: `taken`, tried again at the next run); no answer from the provider (tried again).
 */
export type AliasReconciliation =
  { readonly outcome: 'restored' | 'none' | 'failed' | 'taken' } | { readonly outcome: 'replaced'; readonly previous: string; readonly alias: string };

/**
 * Gives an account a new alias at the banking provider, then here: the provider keeps one alias per CVU, and this
 * service resolves its own accounts' aliases first, so an alias stored here that the provider does not name for the
 * account could be another bank's account's, and payments meant for that account would reach this one. So one
 * change of an account's alias runs at a time, PUT or provisioning (a claim, not a transaction: none stays open
 * across the calls), lasting longer than the calls it makes. A change that stores its alias deletes its claim; one
 * that fails registers the stored alias back and leaves its claim, ended, and one that dies leaves it standing until
 * its time: either way the reconciliation takes it and registers the stored alias again.
 */
export class AliasRegistrar {
  constructor(
    private readonly bank: BankProvider,
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
    private readonly claimMs: number,
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
   * change decides the alias. The claim is deleted only once the outcome is known; else left for the next run.
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

  private async reconciled(accountId: number, claim: HeldClaim): Promise<AliasReconciliation> {
    const stored = await this.stored(accountId);
    if (!stored) return { outcome: 'none' };
    const { alias: previous, cbuCvu: cvu } = stored;
    const registered = await this.register({ alias: previous, cbuCvu: cvu }).catch(() => undefined);
    if (registered !== false) return { outcome: registered ? 'restored' : 'failed' };
    const alias = unguessableAlias(accountId);
    const replaced = (await claim.renew()) && (await this.register({ alias, cbuCvu: cvu }).catch(() => false));
    if (!replaced) return { outcome: 'taken' };
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

  /** The stored alias registered for the account's CVU again, if it has one. */
  private async registerStored(accountId: number): Promise<void> {
    const stored = await this.stored(accountId);
    if (stored) await this.register(stored);
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
  constructor(
    private readonly held: { readonly accountId: number; readonly token: string; readonly claimMs: number },
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
    private readonly registerStored: () => Promise<void>,
  ) {}

  /** Left for the reconciliation: never deleted by this holder. */
  private kept = false;

  async end(tx: ClaimScope): Promise<void> {
    const { accountId, token } = this.held;
    if (!(await tx.receivableAccounts.endAliasChange(accountId, token))) throw new AliasChangeHeld('receivable account', accountId);
  }

  renew(): Promise<boolean> {
    return this.extendBy(this.held.claimMs);
  }

  async abandon(): Promise<void> {
    // Lost (false), the change that took the claim decides the alias; a database that does not answer leaves the
    // claim to end with its time, as a crash would.
    if (!(await this.renew().catch(() => false))) return;
    await this.registerStored().catch(() => undefined);
    await this.leave();
  }

  /**
   * The claim ended now and kept: the next claim of the account takes it (the reconciliation's, or a change's). A
   * database that does not answer leaves it to end with its time.
   */
  async leave(): Promise<void> {
    this.kept = true;
    await this.extendBy(0).catch(() => undefined);
  }

  /** The claim deleted, unless left: the provider names the stored alias for the account's CVU. */
  async release(): Promise<void> {
    const { accountId, token } = this.held;
    if (!this.kept) await this.uow.run((tx) => tx.receivableAccounts.endAliasChange(accountId, token)).catch(() => undefined);
  }

  private extendBy(ms: number): Promise<boolean> {
    const { accountId, token } = this.held;
    const at = this.clock.now();
    return this.uow.run((tx) => tx.receivableAccounts.extendAliasChange(accountId, token, at, new Date(at.getTime() + ms)));
  }
}
