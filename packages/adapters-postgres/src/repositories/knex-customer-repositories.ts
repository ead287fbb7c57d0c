import type { Knex } from 'knex';
import type {
  Credential,
  CredentialRepository,
  CredentialStatus,
  CredentialSummary,
  Customer,
  CustomerQueries,
  CustomerRepository,
  NewCredential,
  NewCustomer,
  OwnerType,
} from '@rcs/domain';

interface CustomerRow {
  id: string;
  name: string;
  approval_control: boolean;
  enabled_owner_types: OwnerType[];
  alias_template: string;
  creation_date: Date;
}

interface CredentialRow {
  id: string;
  customer_id: string;
  client_id: string;
  secret_hash: string;
  scopes: string[];
  status: CredentialStatus;
  creation_date: Date;
}

const toCustomer = (row: CustomerRow): Customer => ({
  id: Number(row.id),
  name: row.name,
  approvalControl: row.approval_control,
  enabledOwnerTypes: row.enabled_owner_types,
  aliasTemplate: row.alias_template,
  creationDate: row.creation_date,
});

const toCredentialSummary = (row: Omit<CredentialRow, 'secret_hash'>): CredentialSummary => ({
  id: Number(row.id),
  customerId: Number(row.customer_id),
  clientId: row.client_id,
  scopes: row.scopes,
  status: row.status,
  creationDate: row.creation_date,
});

const toCredential = (row: CredentialRow): Credential => ({ ...toCredentialSummary(row), secretHash: row.secret_hash });

export class KnexCustomerRepository implements CustomerRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async get(id: number): Promise<Customer | undefined> {
    const row: CustomerRow | undefined = await this.trx('customers').where({ id }).first();
    return row && toCustomer(row);
  }

  async insertIfAbsent(customer: NewCustomer): Promise<{ customer: Customer; created: boolean }> {
    const [inserted] = await this.trx('customers')
      .insert({
        name: customer.name,
        approval_control: customer.approvalControl,
        enabled_owner_types: [...customer.enabledOwnerTypes],
        alias_template: customer.aliasTemplate,
        creation_date: customer.creationDate,
      })
      .onConflict('name')
      .ignore()
      .returning('*');
    if (inserted) return { customer: toCustomer(inserted), created: true };
    const existing: CustomerRow | undefined = await this.trx('customers').where({ name: customer.name }).first();
    if (!existing) throw new Error('customer name conflicted but no row was found');
    return { customer: toCustomer(existing), created: false };
  }
}

export class KnexCredentialRepository implements CredentialRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async findByClientId(clientId: string): Promise<Credential | undefined> {
    const row: CredentialRow | undefined = await this.trx('credentials').where({ client_id: clientId }).first();
    return row && toCredential(row);
  }

  async insertIfAbsent(credential: NewCredential): Promise<{ credential: Credential; created: boolean }> {
    const [inserted] = await this.trx('credentials')
      .insert({
        customer_id: credential.customerId,
        client_id: credential.clientId,
        secret_hash: credential.secretHash,
        scopes: [...credential.scopes],
        status: credential.status,
        creation_date: credential.creationDate,
      })
      .onConflict('client_id')
      .ignore()
      .returning('*');
    if (inserted) return { credential: toCredential(inserted), created: true };
    const existing = await this.findByClientId(credential.clientId);
    if (!existing) throw new Error('credential clientId conflicted but no row was found');
    return { credential: existing, created: false };
  }

  async replaceSecretHash(id: number, secretHash: string): Promise<void> {
    await this.trx('credentials').where({ id }).update({ secret_hash: secretHash });
  }

  async revoke(clientId: string): Promise<boolean> {
    const changed = await this.trx('credentials').where({ client_id: clientId, status: 'ACTIVE' }).update({ status: 'REVOKED' });
    return changed === 1;
  }
}

export class KnexCustomerQueries implements CustomerQueries {
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Customer | undefined> {
    const row: CustomerRow | undefined = await this.db()('customers').where({ id }).first();
    return row && toCustomer(row);
  }

  async list(): Promise<Customer[]> {
    const rows: CustomerRow[] = await this.db()('customers').orderBy('id');
    return rows.map(toCustomer);
  }

  async credentialsOf(customerId: number): Promise<CredentialSummary[]> {
    // The hash is not even read: nothing that lists credentials can hand it on.
    const rows = await this.db()('credentials')
      .select('id', 'customer_id', 'client_id', 'scopes', 'status', 'creation_date')
      .where({ customer_id: customerId })
      .orderBy('id');
    return rows.map(toCredentialSummary);
  }
}
