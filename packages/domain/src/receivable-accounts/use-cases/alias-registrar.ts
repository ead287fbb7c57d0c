import { ProviderError, type AliasRegistration, type BankProvider } from '../../bank/bank-provider';
import { DomainError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';

/**
 * Registers an account's new alias at the banking provider before it is stored, and when storing fails registers
 * back the alias stored: the provider keeps one alias per CVU, so a registration not stored would leave the stored
 * alias free there for another bank's account, while this service, which resolves its own accounts' aliases first,
 * would still pay it to this one.
 */
export class AliasRegistrar {
  constructor(
    private readonly bank: BankProvider,
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts'>>,
  ) {}

  /**
   * 409 alias-already-in-use when another account holds it, at any bank. A provider that gave no answer may have
   * registered it all the same: it counts as registered when the provider's directory then names the CVU, and
   * otherwise the stored alias is registered back before the error is thrown.
   */
  async register(accountId: number, registration: AliasRegistration): Promise<void> {
    let state;
    try {
      state = await this.bank.registerAlias(registration);
    } catch (error) {
      if (!(error instanceof ProviderError) || !(await this.names(registration))) {
        await this.restore(accountId, registration.cbuCvu);
        throw error;
      }
      return;
    }
    if (state === 'TAKEN') throw new DomainError('alias-already-in-use', `alias ${registration.alias} is held by another account`);
  }

  /**
   * The alias stored for the account registered again for its CVU, after a change that registered another failed.
   * Best effort: a provider that does not answer now leaves the two apart until the account's alias next changes.
   */
  async restore(accountId: number, cbuCvu: string): Promise<void> {
    const stored = (await this.uow.run((tx) => tx.receivableAccounts.get(accountId)))?.toSnapshot().alias;
    if (stored) await this.bank.registerAlias({ alias: stored, cbuCvu }).catch(() => undefined);
  }

  private async names({ alias, cbuCvu }: AliasRegistration): Promise<boolean> {
    return (await this.bank.resolveAlias(alias).catch(() => undefined))?.cbuCvu === cbuCvu;
  }
}
