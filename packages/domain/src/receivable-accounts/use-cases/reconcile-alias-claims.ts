import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { AliasChangeHeld, type AliasRegistrar } from './alias-registrar';

/** What a pass did, the accounts an operator should hear of by name. */
export interface AliasReconciliationPass {
  /** Accounts whose stored alias the provider names for their CVU again, or that had none to name. */
  readonly restored: number;
  /** Accounts whose stored alias another account holds at the provider now, given another (CONTRACT has no event for it). */
  readonly replaced: ReadonlyArray<{ readonly accountId: number; readonly previous: string; readonly alias: string }>;
  /** Accounts whose stored alias another account holds, not yet given another: tried again at the next run. */
  readonly taken: readonly number[];
  /** Accounts the provider or the database did not answer for: tried again at the next run. */
  readonly failed: ReadonlyArray<{ readonly accountId: number; readonly error: unknown }>;
  /** The pass filled its batch and settled each: more may be waiting (one left for later is not taken again before aliasSettleMs). */
  readonly more: boolean;
}

/**
 * The job that closes alias changes their holders abandoned (AliasRegistrar.reconcile): a request or provisioning
 * pass that died between registering an alias at the provider and storing it, or that failed after registering.
 * Every instance may run it: each account is taken under its claim, so one runner reconciles it.
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
    // Each account on its own: one whose reconciliation fails must not cost the others theirs.
    const settled = await Promise.allSettled(accounts.map((accountId) => this.aliases.reconcile(accountId)));
    const pass = {
      restored: 0,
      replaced: [] as Array<AliasReconciliationPass['replaced'][number]>,
      taken: [] as number[],
      failed: [] as Array<AliasReconciliationPass['failed'][number]>,
    };
    settled.forEach((result, i) => {
      const accountId = accounts[i];
      if (result.status === 'rejected') {
        // A change claimed the account first: the alias is that change's to decide.
        if (!(result.reason instanceof AliasChangeHeld)) pass.failed.push({ accountId, error: result.reason });
        return;
      }
      const reconciled = result.value;
      if (reconciled.outcome === 'replaced') pass.replaced.push({ accountId, previous: reconciled.previous, alias: reconciled.alias });
      else if (reconciled.outcome === 'taken') pass.taken.push(accountId);
      else if (reconciled.outcome === 'failed') pass.failed.push({ accountId, error: reconciled.error });
      else pass.restored++;
    });
    return { ...pass, more: accounts.length === input.limit && pass.failed.length + pass.taken.length === 0 };
  }
}
