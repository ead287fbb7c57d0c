import type { Clock } from '../../shared/clock';
import { ownedBy } from '../../shared/owned';
import type { TransactionScope, UnitOfWork } from '../../shared/unit-of-work';
import type { Associate, AssociateDetails } from '../associate';
import { assertUsableParent } from './assert-usable-parent';

interface Target {
  readonly customerId: number;
  readonly associateId: number;
}

/** Loads an associate under lock, applies one business move and saves it, all in one transaction. */
async function change(
  uow: UnitOfWork,
  target: Target,
  apply: (associate: Associate, tx: TransactionScope) => Promise<Associate>,
): Promise<Associate> {
  return uow.run(async (tx) => {
    const current = ownedBy(
      await tx.associates.getForUpdate(target.associateId),
      target.customerId,
      'associate',
      target.associateId,
    );
    const next = await apply(current, tx);
    await tx.associates.update(next);
    return next;
  });
}

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
