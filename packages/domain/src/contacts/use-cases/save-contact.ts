import type { Clock } from '../../shared/clock';
import { changeOwned } from '../../shared/change-owned';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { assertPayableOutside } from '../../transfers/transfer-destination';
import { Contact, type ContactDestination, type ContactDetails } from '../contact';

type ContactScope = Pick<TransactionScope, 'contacts' | 'receivableAccounts'>;

/** A recipient's details with its destination already resolved (ResolveContactDestination). */
export interface ContactInput {
  readonly customerId: number;
  readonly details: ContactDetails;
  readonly destination: ContactDestination;
}

/**
 * A recipient is kept only where a transfer to it could be paid: an account of this service that an
 * OUTGOING_TRANSFER may not name (the caller's own, any current account, another customer's receivable account not
 * ACTIVE) is refused as a transfer to it would be, instead of being saved and refused at every payment.
 */
async function assertPayable(tx: ContactScope, input: ContactInput): Promise<void> {
  // The member the caller named it by: a recipient's body is flat, and its cbuCvu is filled in from an alias.
  const member = input.destination.alias === null ? 'cbuCvu' : 'alias';
  assertPayableOutside(await tx.receivableAccounts.hostedAccount(input.destination), input.customerId, member);
}

export class CreateContact {
  constructor(
    private readonly uow: UnitOfWork<ContactScope>,
    private readonly clock: Clock,
  ) {}

  execute(input: ContactInput): Promise<Contact> {
    const draft = Contact.create(input.customerId, input.details, input.destination, this.clock.now());
    return this.uow.run(async (tx) => {
      await assertPayable(tx, input);
      return tx.contacts.insert(draft);
    });
  }
}

/** PUT: replaces every field of the caller's recipient. */
export class ReplaceContact {
  constructor(
    private readonly uow: UnitOfWork<ContactScope & Pick<TransactionScope, 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: ContactInput & { readonly contactId: number }): Promise<Contact> {
    const target = { customerId: input.customerId, id: input.contactId, resource: 'contact' };
    return changeOwned(
      this.uow,
      (tx) => tx.contacts,
      target,
      async (current, tx) => {
        await assertPayable(tx, input);
        return current.replace(input.details, input.destination, this.clock.now());
      },
    );
  }
}

/** Hard delete: nothing refers to a recipient by key (transfers copy its destination), and its CBU/alias are freed. */
export class DeleteContact {
  constructor(private readonly uow: UnitOfWork<Pick<TransactionScope, 'contacts'>>) {}

  execute(input: { readonly customerId: number; readonly contactId: number }): Promise<void> {
    return this.uow.run(async (tx) => {
      await tx.contacts.delete(ownedBy(await tx.contacts.getForUpdate(input.contactId), input.customerId, 'contact', input.contactId));
    });
  }
}
