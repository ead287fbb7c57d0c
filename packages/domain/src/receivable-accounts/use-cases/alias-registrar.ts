import { ProviderError, type AliasRegistration, type BankProvider } from '../../bank/bank-provider';
import type { Clock } from '../../shared/clock';
import { ConcurrentModificationError, DomainError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';

/** Longer than a provider call can take (its attempts and their backoffs, twice: registering, then resolving). */
const CLAIM_MS = 120_000;

type ClaimScope = Pick<TransactionScope, 'receivableAccounts'>;

/**
 * Gives an account a new alias at the banking provider, then here: the provider keeps one alias per CVU, and this
 * service resolves its own accounts' aliases first, so an alias stored here that the provider does not name for the
 * account could be another bank's account's, and payments meant for that account would reach this one. So one
 * change of an account's alias runs at a time (a claim, not a transaction: none stays open across the call), and
 * when storing fails the alias stored is registered back. Left open: a request that dies between the two steps
 * leaves the provider naming its alias until the account's alias next changes.
 */
export class AliasRegistrar {
  constructor(
    private readonly bank: BankProvider,
    private readonly uow: UnitOfWork<ClaimScope>,
    private readonly clock: Clock,
  ) {}

  /**
   * Registers `registration` for the account, then runs `store` (which stores it, in a transaction handed
   * `endClaim` to end the claim in), 409 concurrent-modification while another change of the alias runs and 409
   * alias-already-in-use when another account holds it, at any bank. A provider that gave no answer may have
   * registered it all the same: it counts as registered when the provider's directory then names the CVU.
   */
  async changeAlias<T>(accountId: number, registration: AliasRegistration, store: (endClaim: (tx: ClaimScope) => Promise<void>) => Promise<T>): Promise<T> {
    const claim = `${this.clock.now().getTime()}-${Math.random().toString(36).slice(2)}`;
    const now = this.clock.now();
    const claimed = await this.uow.run((tx) => tx.receivableAccounts.claimAliasChange(accountId, claim, now, new Date(now.getTime() + CLAIM_MS)));
    if (!claimed) throw new ConcurrentModificationError('receivable account', accountId);
    try {
      await this.register(registration);
      return await store((tx) => tx.receivableAccounts.endAliasChange(accountId, claim));
    } catch (error) {
      // The caller is answered with what failed; a claim these leave ends with its time.
      await this.restore(accountId, registration.cbuCvu).catch(() => undefined);
      await this.uow.run((tx) => tx.receivableAccounts.endAliasChange(accountId, claim)).catch(() => undefined);
      throw error;
    }
  }

  private async register(registration: AliasRegistration): Promise<void> {
    let state;
    try {
      state = await this.bank.registerAlias(registration);
    } catch (error) {
      if (error instanceof ProviderError && (await this.names(registration))) return;
      throw error;
    }
    if (state === 'TAKEN') throw new DomainError('alias-already-in-use', `alias ${registration.alias} is held by another account`);
  }

  /**
   * The alias stored for the account registered again for its CVU. Best effort: a provider that does not answer now
   * leaves the two apart until the account's alias next changes.
   */
  private async restore(accountId: number, cbuCvu: string): Promise<void> {
    const stored = (await this.uow.run((tx) => tx.receivableAccounts.get(accountId)))?.toSnapshot().alias;
    if (stored) await this.bank.registerAlias({ alias: stored, cbuCvu }).catch(() => undefined);
  }

  private async names({ alias, cbuCvu }: AliasRegistration): Promise<boolean> {
    return (await this.bank.resolveAlias(alias).catch(() => undefined))?.cbuCvu === cbuCvu;
  }
}
