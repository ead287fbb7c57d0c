import type { UnitOfWork } from '../shared/unit-of-work';
import type { TransactionScope } from '../transaction-scope';
import type { AliasResolution, BankProvider } from './bank-provider';
import type { EntityDirectory } from './entity-directory';

/**
 * Who an alias names. The service's own accounts first: it assigns their aliases itself, so the banking provider
 * may not know them, and an alias one of them holds must never be paid to the account the provider says. Then
 * the provider (a ProviderError when it does not answer; undefined when no account has the alias).
 */
export class AliasDirectory {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts'>>,
    private readonly bank: BankProvider,
    private readonly entities: EntityDirectory,
  ) {}

  async resolve(alias: string): Promise<AliasResolution | undefined> {
    const hosted = await this.uow.run((tx) => tx.receivableAccounts.hostedAccount({ cbuCvu: null, alias }));
    if (!hosted) return this.bank.resolveAlias(alias);
    return { alias, cbuCvu: hosted.cvu, holderName: null, holderTaxId: null, entity: this.entities.entityOf(hosted.cvu) };
  }
}
