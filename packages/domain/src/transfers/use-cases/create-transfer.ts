import type { Clock } from '../../shared/clock';
import { DomainError, NotFoundError, ValidationError } from '../../shared/domain-error';
import type { Money } from '../../shared/money';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { CurrentAccount } from '../../current-accounts/current-account';
import type { Contact } from '../../contacts/contact';
import { calendarDay } from '../../receivables/calendar-day';
import { findOwnedContact } from '../../contacts/contact-repository';
import { Transfer } from '../transfer';
import {
  assertDifferentFrom,
  assertPayableOutside,
  internalDestinationId,
  outgoingDestination,
  type DestinationInput,
  type TransferDestination,
  type TransferType,
} from '../transfer-destination';
import { transferAccount } from './transfer-accounts';

type CreateScope = Pick<TransactionScope, 'customers' | 'currentAccounts' | 'receivableAccounts' | 'transfers' | 'contacts'>;

export interface CreateTransferInput {
  readonly customerId: number;
  /** The credential asking: kept, so that it cannot approve its own transfer. */
  readonly credentialId: number;
  readonly type: TransferType;
  readonly sourceAccountId: number;
  readonly amount: Money;
  readonly currencyCode: string;
  /** Required unless contactId names a recipient to pay; never both. */
  readonly destination?: DestinationInput | null;
  /** A recipient of the caller's (OUTGOING_TRANSFER only): its destination is copied into the transfer. */
  readonly contactId?: number | null;
  readonly description?: string | null;
  readonly externalId?: string | null;
  readonly scheduledDate?: string | null;
}

/**
 * POST /v1/transfers: every rule of SPEC "Transfers" that holds at creation. The balance is not one of them: the
 * worker checks and debits it atomically when it pays, since a balance read now could be spent by then.
 */
export class CreateTransfer {
  constructor(
    private readonly uow: UnitOfWork<CreateScope>,
    private readonly clock: Clock,
  ) {}

  execute(input: CreateTransferInput): Promise<Transfer> {
    // The request's own shape first, so a malformed destination is a 400 whatever the accounts are.
    const named = namedDestination(input);
    const internalId = 'destination' in named && input.type === 'INTERNAL_TRANSFER' ? internalDestinationId(named.destination) : null;
    const outgoing = 'destination' in named && input.type === 'OUTGOING_TRANSFER' ? outgoingDestination(named.destination) : null;
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const source = await transferAccount(tx, input.customerId, input.sourceAccountId, 'sourceAccountId');
      const destination =
        'contactId' in named
          ? contactDestination(await findOwnedContact(tx.contacts, input.customerId, named.contactId))
          : (outgoing ?? (await this.internalDestination(tx, input.customerId, internalId!)));
      if (input.currencyCode !== source.currencyCode) {
        throw new DomainError('unmatching-transfer-currency-code', `currencyCode must be ${source.currencyCode}, the source account's`);
      }
      if (source.status !== 'ACTIVE') throw new DomainError('source-account-not-active', `source account ${source.id} is ${source.status}`);
      assertDifferentFrom(destination, source);
      if (input.type === 'OUTGOING_TRANSFER') assertPayableOutside(await tx.receivableAccounts.hostedAccount(destination), input.customerId);
      const customer = await tx.customers.get(input.customerId);
      if (!customer) throw new NotFoundError('customer', input.customerId);
      const draft = Transfer.draft(
        {
          customerId: input.customerId,
          type: input.type,
          sourceAccountId: source.id,
          amountMinor: input.amount.minor,
          currencyCode: source.currencyCode,
          destination,
          contactId: 'contactId' in named ? named.contactId : null,
          description: input.description ?? null,
          externalId: input.externalId ?? null,
          scheduledDate: input.scheduledDate ?? null,
          createdByCredentialId: input.credentialId,
        },
        { approvalControl: customer.approvalControl, today: calendarDay(now) },
        now,
      );
      return tx.transfers.insert(draft);
    });
  }

  /** Another current account of the caller's, its CVU and alias copied in so the transfer tells where it went. */
  private async internalDestination(tx: CreateScope, customerId: number, accountId: number): Promise<TransferDestination> {
    const account: CurrentAccount = await transferAccount(tx, customerId, accountId, 'destination.accountId');
    return { cbuCvu: account.cvu, alias: account.alias, accountId: account.id, counterParty: null };
  }
}

/** Exactly one of destination and contactId; a recipient is a third party's account, so only OUTGOING_TRANSFER takes one. */
function namedDestination(input: CreateTransferInput): { readonly destination: DestinationInput } | { readonly contactId: number } {
  const hasContact = input.contactId !== undefined && input.contactId !== null;
  const hasDestination = input.destination !== undefined && input.destination !== null;
  if (hasContact && hasDestination) throw ValidationError.of('contactId', 'send destination or contactId, not both');
  if (!hasContact) {
    if (!hasDestination) throw ValidationError.of('destination', 'destination is required unless contactId names a recipient');
    return { destination: input.destination };
  }
  if (input.type !== 'OUTGOING_TRANSFER') throw ValidationError.of('contactId', 'only an OUTGOING_TRANSFER pays a recipient');
  return { contactId: input.contactId };
}

/** The recipient's account and holder as they are now, copied: editing or deleting the recipient later changes nothing. */
function contactDestination(contact: Contact): TransferDestination {
  const c = contact.toSnapshot();
  return { cbuCvu: c.cbuCvu, alias: c.alias, accountId: null, counterParty: { name: c.name, taxId: c.taxId } };
}
