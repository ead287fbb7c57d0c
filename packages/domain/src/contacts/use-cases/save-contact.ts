import type { Clock } from '../../shared/clock';
import { changeOwned } from '../../shared/change-owned';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { Contact, type ContactDestination, type ContactDetails } from '../contact';

/** A recipient's details with its destination already resolved (ResolveContactDestination). */
export interface ContactInput {
  readonly customerId: number;
  readonly details: ContactDetails;
  readonly destination: ContactDestination;
}

export class CreateContact {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'contacts'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: ContactInput): Promise<Contact> {
    const draft = Contact.create(input.customerId, input.details, input.destination, this.clock.now());
    return this.uow.run((tx) => tx.contacts.insert(draft));
  }
}

/** PUT: replaces every field of the caller's recipient. */
export class ReplaceContact {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'contacts' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: ContactInput & { readonly contactId: number }): Promise<Contact> {
    const target = { customerId: input.customerId, id: input.contactId, resource: 'contact' };
    return changeOwned(
      this.uow,
      (tx) => tx.contacts,
      target,
      (current) => current.replace(input.details, input.destination, this.clock.now()),
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
