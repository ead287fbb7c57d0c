import { NotFoundError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';

export interface Identity {
  readonly customerId: number;
  readonly customerName: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
}

/** GET /v1/me: who the token acts for. */
export class DescribeIdentity {
  constructor(private readonly uow: UnitOfWork<Pick<TransactionScope, 'customers'>>) {}

  async execute(input: { customerId: number; clientId: string; scopes: readonly string[] }): Promise<Identity> {
    const customer = await this.uow.run((tx) => tx.customers.get(input.customerId));
    if (!customer) throw new NotFoundError('customer', input.customerId);
    return { customerId: customer.id, customerName: customer.name, clientId: input.clientId, scopes: input.scopes };
  }
}
