import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { Client, type ClientDetails } from '../client';

export interface RegisterClientInput {
  readonly customerId: number;
  readonly details: ClientDetails;
}

/** Upsert on identity: a new client is created; an existing one is returned unchanged (CONTRACT). */
export class RegisterClient {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'clients'>>,
    private readonly clock: Clock,
  ) {}

  async execute(input: RegisterClientInput): Promise<{ client: Client; created: boolean }> {
    const candidate = Client.register(input.customerId, input.details, this.clock.now());
    return this.uow.run((tx) => tx.clients.insertIfAbsent(candidate));
  }
}
