import type { Clock } from '../../shared/clock';
import { changeOwned } from '../../shared/change-owned';
import type { TransactionScope, UnitOfWork } from '../../shared/unit-of-work';
import type { Associate, AssociateDetails } from '../associate';
import { assertUsableParent } from './assert-usable-parent';

interface Target {
  readonly customerId: number;
  readonly associateId: number;
}

const change = (uow: UnitOfWork, target: Target, apply: (associate: Associate, tx: TransactionScope) => Promise<Associate>) =>
  changeOwned(uow, (tx) => tx.associates, { customerId: target.customerId, id: target.associateId, resource: 'associate' }, apply);

export class ReplaceAssociate {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(input: Target & { readonly details: AssociateDetails }): Promise<Associate> {
    return change(this.uow, input, async (current, tx) => {
      const next = current.replaceDetails(input.details, this.clock.now());
      await assertUsableParent(tx, input.customerId, input.details.parentAssociateId);
      return next;
    });
  }
}

/** Soft delete: status DISABLED, history kept. */
export class DisableAssociate {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(input: Target): Promise<Associate> {
    return change(this.uow, input, async (current) => current.disable(this.clock.now()));
  }
}

export class ActivateAssociate {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(input: Target): Promise<Associate> {
    return change(this.uow, input, async (current) => current.activate(this.clock.now()));
  }
}
