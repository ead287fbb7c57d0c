import type { Clock } from '../../shared/clock';
import { changeOwned } from '../../shared/change-owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { Client, ClientDetails } from '../client';

export interface ReplaceClientInput {
  readonly customerId: number;
  readonly clientId: number;
  readonly details: ClientDetails;
}

/** PUT: replaces the editable details; identity fields must match. */
export class ReplaceClient {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'clients' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  async execute(input: ReplaceClientInput): Promise<Client> {
    const target = { customerId: input.customerId, id: input.clientId, resource: 'client' };
    return changeOwned(
      this.uow,
      (tx) => tx.clients,
      target,
      (current) => current.replaceDetails(input.details, this.clock.now()),
    );
  }
}
