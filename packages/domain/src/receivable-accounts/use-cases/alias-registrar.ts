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
}

/**
 * Gives an account a new alias at the banking provider, then here: the provider keeps one alias per CVU, and this
 * service resolves its own accounts' aliases first, so an alias stored here that the provider does not name for the
 * account could be another bank's account's, and payments meant for that account would reach this one. So one
 * change of an account's alias runs at a time, PUT or provisioning (a claim, not a transaction: none stays open
 * across the calls), lasting longer than the calls it makes; when the change fails, the alias stored is registered
 * back. Left open: a request that dies between registering and storing (or a restore the provider refuses) leaves
 * the provider naming another alias until the account's alias next changes.
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
  async claimed<T>(accountId: number, cbuCvu: string, work: (claim: AliasClaim) => Promise<T>): Promise<T> {
    const token = globalThis.crypto.randomUUID();
    const now = this.clock.now();
    const until = new Date(now.getTime() + this.claimMs);
    if (!(await this.uow.run((tx) => tx.receivableAccounts.claimAliasChange(accountId, token, now, until)))) {
      throw new AliasChangeHeld('receivable account', accountId);
    }
    const claim: AliasClaim = {
      end: async (tx) => {
        if (!(await tx.receivableAccounts.endAliasChange(accountId, token))) throw new AliasChangeHeld('receivable account', accountId);
      },
      renew: () => {
        const at = this.clock.now();
        return this.uow.run((tx) => tx.receivableAccounts.extendAliasChange(accountId, token, at, new Date(at.getTime() + this.claimMs)));
      },
    };
    try {
      return await work(claim);
    } catch (error) {
      // The caller is answered with what failed.
      if (await claim.renew().catch(() => false)) await this.restore(accountId, cbuCvu).catch(() => undefined);
      throw error;
    } finally {
      await this.uow.run((tx) => tx.receivableAccounts.endAliasChange(accountId, token)).catch(() => undefined);
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

  /** The alias stored for the account registered again for its CVU (best effort), by a holder of its claim. */
  async restore(accountId: number, cbuCvu: string): Promise<void> {
    const stored = (await this.uow.run((tx) => tx.receivableAccounts.get(accountId)))?.toSnapshot().alias;
    if (stored) await this.bank.registerAlias({ alias: stored, cbuCvu }).catch(() => undefined);
  }

  private async names({ alias, cbuCvu }: AliasRegistration): Promise<boolean> {
    return (await this.bank.resolveAlias(alias).catch(() => undefined))?.cbuCvu === cbuCvu;
  }
}
