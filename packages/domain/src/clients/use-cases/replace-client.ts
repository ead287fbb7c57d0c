import type { Clock } from '../../shared/clock';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { Client, ClientDetails } from '../client';

export interface ReplaceClientInput {
  readonly customerId: number;
  readonly clientId: number;
  readonly details: ClientDetails;
}

/** PUT: replaces the editable details; identity fields must match. */
export class ReplaceClient {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: ReplaceClientInput): Promise<Client> {
    return this.uow.run(async (tx) => {
      const current = ownedBy(await tx.clients.getForUpdate(input.clientId), input.customerId, 'client', input.clientId);
      const next = current.replaceDetails(input.details, this.clock.now());
      await tx.clients.update(next);
      return next;
    });
  }
}
