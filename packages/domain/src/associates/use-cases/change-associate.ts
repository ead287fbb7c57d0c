import type { Clock } from '../../shared/clock';
import { ValidationError } from '../../shared/domain-error';
import { changeOwned, changeOwnedIn } from '../../shared/change-owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { Associate, AssociateDetails } from '../associate';
import { assertUsableParent } from './assert-usable-parent';

interface Target {
  readonly customerId: number;
  readonly associateId: number;
}

type Scope = Pick<TransactionScope, 'associates' | 'outbox'>;

const owned = (target: Target) => ({ customerId: target.customerId, id: target.associateId, resource: 'associate' });
const associates = (tx: Scope) => tx.associates;

const change = (uow: UnitOfWork<Scope>, target: Target, apply: (associate: Associate) => Associate) => changeOwned(uow, associates, owned(target), apply);

export class ReplaceAssociate {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
  ) {}

  execute(input: Target & { readonly details: AssociateDetails }): Promise<Associate> {
    return this.uow.run(async (tx) => {
      // The associate and its new parent are locked lower id first: two edits naming each other as parent then
      // wait for one another instead of each holding one lock and deadlocking on the other.
      const parentId = input.details.parentAssociateId;
      if (parentId !== null && parentId < input.associateId) await tx.associates.getForShare(parentId);
      return changeOwnedIn(tx, associates, owned(input), async (current) => {
        const next = current.replaceDetails(input.details, this.clock.now());
        await assertUsableParent(tx, input.customerId, parentId);
        if (parentId !== null && (await tx.associates.supervisorChain(parentId)).includes(current.id)) {
          throw ValidationError.of('parentAssociateId', `associate ${parentId} reports to ${current.id}: a supervisor cannot report to its own report`);
        }
        return next;
      });
    });
  }
}

/** Soft delete: status DISABLED, history kept. */
export class DisableAssociate {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
  ) {}

  execute(input: Target): Promise<Associate> {
    return change(this.uow, input, (current) => current.disable(this.clock.now()));
  }
}

export class ActivateAssociate {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
  ) {}

  execute(input: Target): Promise<Associate> {
    return change(this.uow, input, (current) => current.activate(this.clock.now()));
  }
}
