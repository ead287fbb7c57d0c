import type { Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { Associate, type AssociateDetails } from '../associate';
import { assertUsableParent } from './assert-usable-parent';

export interface RegisterAssociateInput {
  readonly customerId: number;
  readonly details: AssociateDetails;
}

/**
 * Upsert on (customer, taxId): creates the associate, or returns the existing ACTIVE one unchanged. A DISABLED
 * one is not silently revived: associate-disabled tells the caller to activate it (CONTRACT).
 */
export class RegisterAssociate {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'associates'>>,
    private readonly clock: Clock,
  ) {}

  async execute(input: RegisterAssociateInput): Promise<{ associate: Associate; created: boolean }> {
    const candidate = Associate.register(input.customerId, input.details, this.clock.now());
    return this.uow.run(async (tx) => {
      await assertUsableParent(tx, input.customerId, candidate.parentAssociateId);
      const result = await tx.associates.insertIfAbsent(candidate);
      if (!result.created && result.associate.status === 'DISABLED') {
        throw new DomainError(
          'associate-disabled',
          `associate ${result.associate.id} with this taxId is DISABLED; activate it with POST /v1/associates/${result.associate.id}/activations`,
        );
      }
      return result;
    });
  }
}
