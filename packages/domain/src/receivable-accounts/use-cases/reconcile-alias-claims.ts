import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { AliasChangeHeld, type AliasReconciliation, type AliasRegistrar } from './alias-registrar';

/** What a pass did; `taken` names the accounts whose stored alias another account holds at the provider (for an operator). */
export interface AliasReconciliationPass {
  readonly restored: number;
  readonly failed: number;
  readonly taken: readonly number[];
  /**
   * The pass filled its batch and the provider answered each: more may be waiting. One it did not answer is left for
   * the next run, its claim due again at once, so a pass run again now would take it again.
   */
  readonly more: boolean;
}

/**
 * The job that closes alias changes their holders abandoned (AliasRegistrar.reconcile): a request or provisioning
 * pass that died between registering an alias at the provider and storing it, or whose alias could not be
 * registered back. Every instance may run it: each account is taken under its claim, so one runner reconciles it.
 */
export class ReconcileAliasClaims {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts'>>,
    private readonly clock: Clock,
    private readonly aliases: AliasRegistrar,
  ) {}

  async execute(input: { limit: number }): Promise<AliasReconciliationPass> {
    const now = this.clock.now();
    const accounts = await this.uow.run((tx) => tx.receivableAccounts.abandonedAliasChanges(now, input.limit));
    const outcomes = await Promise.all(accounts.map((accountId) => this.reconcile(accountId)));
    return {
      restored: outcomes.filter((outcome) => outcome === 'restored').length,
      failed: outcomes.filter((outcome) => outcome === 'failed').length,
      taken: accounts.filter((_, i) => outcomes[i] === 'taken'),
      more: accounts.length === input.limit && !outcomes.includes('failed'),
    };
  }

  private async reconcile(accountId: number): Promise<AliasReconciliation | 'held'> {
    try {
      return await this.aliases.reconcile(accountId);
    } catch (error) {
      // A change claimed the account first: the alias is that change's to decide.
      if (error instanceof AliasChangeHeld) return 'held';
      throw error;
    }
  }
}
