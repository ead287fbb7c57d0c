import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  Credential,
  type CredentialRepository,
  type CredentialSnapshot,
  type CredentialStatus,
  type CredentialSummary,
  type Customer,
  type CustomerQueries,
  type CustomerRepository,
  type NewCredential,
  type NewCustomer,
  type OwnerType,
} from '@rcs/domain';
import { lockedForChange } from './row-locks';

interface CustomerRow {
  id: string;
  name: string;
  approval_control: boolean;
  enabled_owner_types: OwnerType[];
  alias_template: string;
  creation_date: Date;
}

export interface CredentialRow {
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

const toCredential = (row: CredentialRow): CredentialSnapshot => ({ ...toCredentialSummary(row), secretHash: row.secret_hash });

export class KnexCustomerRepository implements CustomerRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async get(id: number): Promise<Customer | undefined> {
    const row = await this.trx('customers').where({ id }).first<CustomerRow | undefined>();
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
      .returning<CustomerRow[]>('*');
    if (inserted) return { customer: toCustomer(inserted), created: true };
    const existing = await this.trx('customers').where({ name: customer.name }).first<CustomerRow | undefined>();
    if (!existing) throw new Error('customer name conflicted but no row was found');
    return { customer: toCustomer(existing), created: false };
  }

  async aliasTemplates(): Promise<string[]> {
    const rows: Array<{ alias_template: string }> = await this.trx('customers').distinct('alias_template');
    return rows.map((row) => row.alias_template);
  }
}

export class KnexCredentialRepository implements CredentialRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async findByClientId(clientId: string): Promise<CredentialSnapshot | undefined> {
    const row = await this.trx('credentials').where({ client_id: clientId }).first<CredentialRow | undefined>();
    return row && toCredential(row);
  }

  async getForUpdate(clientId: string): Promise<Credential | undefined> {
    const row = await lockedForChange(this.trx('credentials').where({ client_id: clientId })).first<CredentialRow | undefined>();
    return row && Credential.rehydrate(toCredential(row));
  }

  async insertIfAbsent(credential: NewCredential): Promise<{ credential: CredentialSnapshot; created: boolean }> {
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
      .returning<CredentialRow[]>('*');
    if (inserted) return { credential: toCredential(inserted), created: true };
    const existing = await this.findByClientId(credential.clientId);
    if (!existing) throw new Error('credential clientId conflicted but no row was found');
    return { credential: existing, created: false };
  }

  async replaceSecretHash(id: number, secretHash: string): Promise<void> {
    await this.trx('credentials').where({ id }).update({ secret_hash: secretHash });
  }

  async update(credential: Credential): Promise<void> {
    const { id, status } = credential.toSnapshot();
    const changed = await this.trx('credentials').where({ id, status: credential.storedStatus }).update({ status });
    if (changed !== 1) throw new ConcurrentModificationError('credential', id);
  }
}

export class KnexCustomerQueries implements CustomerQueries {
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Customer | undefined> {
    const row = await this.db()('customers').where({ id }).first<CustomerRow | undefined>();
    return row && toCustomer(row);
  }

  async list(): Promise<Customer[]> {
    const rows = await this.db()('customers').orderBy('id').select<CustomerRow[]>('*');
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
