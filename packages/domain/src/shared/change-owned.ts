import type { DomainEvent, Outbox } from './events';
import { ownedBy } from './owned';
import type { UnitOfWork } from './unit-of-work';

interface Changeable {
  readonly customerId: number;
  /** Events the move produced, stored with it; entities without events leave this out. */
  readonly events?: readonly DomainEvent[];
}

interface LockingRepository<E> {
  getForUpdate(id: number): Promise<E | undefined>;
  update(entity: E): Promise<void>;
}

/**
 * The shape of every change to an existing entity: in one transaction, load it under lock, check it is the
 * caller's (404/403), apply one business move, save it with a version check and store its events.
 */
export function changeOwned<E extends Changeable, Scope extends { readonly outbox: Outbox }>(
  uow: UnitOfWork<Scope>,
  repository: (tx: Scope) => LockingRepository<E>,
  target: { readonly customerId: number; readonly id: number; readonly resource: string },
  apply: (current: E, tx: Scope) => Promise<E> | E,
): Promise<E> {
  return uow.run((tx) => changeOwnedIn(tx, repository, target, apply));
}

/** changeOwned in a transaction already open, for a use case whose answer reads more in it after the change. */
export async function changeOwnedIn<E extends Changeable, Scope extends { readonly outbox: Outbox }>(
  tx: Scope,
  repository: (tx: Scope) => LockingRepository<E>,
  target: { readonly customerId: number; readonly id: number; readonly resource: string },
  apply: (current: E, tx: Scope) => Promise<E> | E,
): Promise<E> {
  const current = ownedBy(await repository(tx).getForUpdate(target.id), target.customerId, target.resource, target.id);
  const next = await apply(current, tx);
  await repository(tx).update(next);
  if (next.events?.length) await tx.outbox.record(next.events);
  return next;
}
