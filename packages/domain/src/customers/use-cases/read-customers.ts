import { NotFoundError } from '../../shared/domain-error';
import type { Customer } from '../customer';
import type { CredentialSummary } from '../credential';
import type { CustomerQueries } from '../customer-repository';

/** `npm run admin -- customers list`: every tenant of the service, oldest first. */
export class ListCustomers {
  constructor(private readonly queries: CustomerQueries) {}

  execute(): Promise<Customer[]> {
    return this.queries.list();
  }
}

/** `npm run admin -- credentials list --customer ID`: what an operator needs to tell them apart, no secret. */
export class ListCredentials {
  constructor(private readonly queries: CustomerQueries) {}

  async execute(input: { customerId: number }): Promise<CredentialSummary[]> {
    if (!(await this.queries.get(input.customerId))) throw new NotFoundError('customer', input.customerId);
    return this.queries.credentialsOf(input.customerId);
  }
}
