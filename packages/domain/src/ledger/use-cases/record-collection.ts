import type { Clock } from '../../shared/clock';
import { DomainError, NotFoundError } from '../../shared/domain-error';
import { trimmedName } from '../../shared/names';
import type { Money } from '../../shared/money';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import { receivingAccount } from '../../receivable-accounts/use-cases/account-parties';
import { movementCreated, type CounterParty, type Movement } from '../movement';

export interface RecordIncomingTransferInput {
  /** The provider's transfer id: a repeated notification records nothing new. */
  readonly providerReference: string;
  readonly cvu: string;
  readonly amount: Money;
  readonly currencyCode: string;
  readonly counterParty: CounterParty;
}

export interface RecordCollectionInput {
  readonly customerId: number;
  readonly receivableAccountId: number;
  readonly amount: Money;
  /** Defaults to the account's currency. */
  readonly currencyCode?: string;
  readonly counterParty: CounterParty;
}

/**
 * Money arrived on a receivable account's CVU (the sandbox helper, or the provider's incoming-transfer
 * notification): a CREDIT/DEPOSIT movement and the account's balance, with movement.created, in one transaction.
 * It is not matched to any receivable: the integrator decides which one it pays.
 */
export class RecordCollection {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivableAccounts' | 'currentAccounts' | 'ledger' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: RecordCollectionInput): Promise<Movement> {
    // The payer's name as every name the integrator sends is kept (trimmed, never blank); a provider's notification
    // is recorded as the provider sends it: money that arrived is never refused for its payer's name.
    const counterParty = { ...input.counterParty, name: trimmedName(input.counterParty.name, 'counterParty.name') };
    return this.uow.run(async (tx) => {
      const account = await receivingAccount(tx, input.customerId, input.receivableAccountId, 'lock');
      return this.credit(tx, account, { ...input, counterParty }, null);
    });
  }

  /**
   * The provider's incoming-transfer notification, found by CVU. Exactly once per provider reference: a duplicate
   * arriving at the same moment waits for the first at the reference (whatever CVU it names) and then finds it.
   */
  fromProvider(input: RecordIncomingTransferInput): Promise<{ movement: Movement; recorded: boolean }> {
    return this.uow.run(async (tx) => {
      const seen = await tx.ledger.findByProviderReference(input.providerReference);
      if (seen) {
        // The same notification again is answered with what it recorded; another under its id is the provider's
        // fault, refused rather than acknowledged as if the money recorded were what it says now.
        const cvu = (await tx.receivableAccounts.get(seen.accountId))?.toSnapshot().cvu;
        if (seen.amountMinor !== input.amount.minor || seen.currencyCode !== input.currencyCode || cvu !== input.cvu) {
          throw new DomainError('idempotency-key-reuse', `notification ${input.providerReference} was recorded with another CVU, amount or currency`);
        }
        return { movement: seen, recorded: false };
      }
      const account = await tx.receivableAccounts.getByCvuForUpdate(input.cvu);
      if (!account) throw new NotFoundError('receivable account with CVU', input.cvu);
      return { movement: await this.credit(tx, account, input, input.providerReference), recorded: true };
    });
  }

  private async credit(
    tx: Pick<TransactionScope, 'receivableAccounts' | 'currentAccounts' | 'ledger' | 'outbox'>,
    account: ReceivableAccount,
    input: Pick<RecordCollectionInput, 'amount' | 'currencyCode' | 'counterParty'>,
    providerReference: string | null,
  ): Promise<Movement> {
    const snapshot = account.toSnapshot();
    if (account.status !== 'ACTIVE') {
      throw new DomainError('receivable-account-not-active', `receivable account ${account.id} is ${account.status}; only ACTIVE accounts receive collections`);
    }
    if ((input.currencyCode ?? snapshot.currencyCode) !== snapshot.currencyCode) {
      throw new DomainError('unmatching-movement-currency-code', `currencyCode must be ${snapshot.currencyCode}, the account's`);
    }
    const movement = await tx.ledger.append({
      customerId: account.customerId,
      accountId: account.id,
      accountKind: 'RECEIVABLE',
      movementType: 'CREDIT',
      operationType: 'DEPOSIT',
      subtype: null,
      amountMinor: input.amount.minor,
      currencyCode: snapshot.currencyCode,
      counterParty: input.counterParty,
      settlementId: null,
      providerReference,
      transferId: null,
      movementDate: this.clock.now(),
    });
    await tx.outbox.record([movementCreated(movement)]);
    return movement;
  }
}
