import {
  ConcurrentModificationError,
  DomainError,
  ReceivableAccount,
  ownerTypeOf,
  type AccountOwner,
  type CurrencyCode,
  type HostedAccount,
  type OwnerDetails,
  type Page,
  type PageRequest,
  type ProvisioningClaim,
  type ReceivableAccountListFilter,
  type ReceivableAccountQueries,
  type ReceivableAccountRecord,
  type ReceivableAccountRepository,
  type ReceivableAccountSnapshot,
} from '../../src';
import { nextId, presentIn, type Tables, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

const sameOwner = (a: ReceivableAccountSnapshot, customerId: number, owner: AccountOwner, currency: string) =>
  a.customerId === customerId && a.clientId === owner.clientId && a.associateId === owner.associateId && a.currencyCode === currency;

/** The sum of an account's PENDING receivables' amounts, each positive whatever its type. */
const pendingAmountOf = (tables: Tables, accountId: number): bigint =>
  [...tables.receivables.values()].filter((r) => r.receivableAccountId === accountId && r.status === 'PENDING').reduce((sum, r) => sum + r.amountMinor, 0n);

/** Holder of the CVU as the provider sees it: the client when there is one, else the associate. */
function holderOf(tables: Tables, a: ReceivableAccountSnapshot): { holderName: string; holderTaxId: string } {
  const client = a.clientId === null ? undefined : tables.clients.get(a.clientId);
  if (client) return { holderName: client.businessName, holderTaxId: client.taxId };
  const associate = tables.associates.get(a.associateId as number)!;
  return { holderName: `${associate.name} ${associate.lastName}`, holderTaxId: associate.taxId };
}

export class InMemoryReceivableAccountRepository implements ReceivableAccountRepository {
  constructor(private readonly ref: TablesRef) {}

  async nextId(): Promise<number> {
    return nextId(this.ref.tables, 'account');
  }

  async nextIds(count: number): Promise<number[]> {
    return Array.from({ length: count }, () => nextId(this.ref.tables, 'account'));
  }

  async insertManyIfAbsent(accounts: readonly ReceivableAccount[]): Promise<Array<{ account: ReceivableAccount; created: boolean }>> {
    const results: Array<{ account: ReceivableAccount; created: boolean }> = [];
    for (const account of accounts) results.push(await this.insertIfAbsent(account));
    return results;
  }

  async insertIfAbsent(account: ReceivableAccount): Promise<{ account: ReceivableAccount; created: boolean }> {
    const s = account.toSnapshot();
    const existing = await this.findByOwner(s.customerId, s, s.currencyCode);
    if (existing) return { account: existing, created: false };
    this.ref.tables.receivableAccounts.set(s.id, s);
    return { account: ReceivableAccount.rehydrate(s), created: true };
  }

  async getForUpdate(id: number): Promise<ReceivableAccount | undefined> {
    const found = this.ref.tables.receivableAccounts.get(id);
    return found && ReceivableAccount.rehydrate(found);
  }

  async get(id: number): Promise<ReceivableAccount | undefined> {
    return this.getForUpdate(id);
  }

  // Transactions here run one at a time: a settlement never runs beside an issue to be held off.
  async holdAgainstSettlement(): Promise<void> {}

  async getMany(ids: readonly number[]): Promise<ReceivableAccount[]> {
    return presentIn(this.ref.tables.receivableAccounts, ids).map((s) => ReceivableAccount.rehydrate(s));
  }

  getManyForUpdate(ids: readonly number[]): Promise<ReceivableAccount[]> {
    return this.getMany(ids);
  }

  async getByCvuForUpdate(cvu: string): Promise<ReceivableAccount | undefined> {
    const found = [...this.ref.tables.receivableAccounts.values()].find((a) => a.cvu === cvu);
    return found && ReceivableAccount.rehydrate(found);
  }

  async findByOwner(customerId: number, owner: AccountOwner, currencyCode: CurrencyCode): Promise<ReceivableAccount | undefined> {
    const found = [...this.ref.tables.receivableAccounts.values()].find((a) => sameOwner(a, customerId, owner, currencyCode));
    return found && ReceivableAccount.rehydrate(found);
  }

  /** Enforces what the SQL constraints enforce: versions, one account per owner, unique alias and CVU. */
  async update(account: ReceivableAccount): Promise<void> {
    const next = account.toSnapshot();
    const stored = this.ref.tables.receivableAccounts.get(next.id);
    if (!stored || stored.version !== next.version - 1) throw new ConcurrentModificationError('receivable account', next.id);
    const others = [...this.ref.tables.receivableAccounts.values()].filter((a) => a.id !== next.id);
    if (others.some((a) => sameOwner(a, next.customerId, next, next.currencyCode))) {
      throw new DomainError('receivable-account-already-exists', 'another account has this owner and currency');
    }
    if (next.alias !== null && (await this.aliasInUse(next.alias, next.id)))
      throw new DomainError('alias-already-in-use', `alias ${next.alias} is already in use`);
    if (next.cvu !== null && others.some((a) => a.cvu === next.cvu)) throw new Error(`CVU ${next.cvu} is already assigned`);
    this.ref.tables.receivableAccounts.set(next.id, next);
    this.ref.tables.accountLeases.delete(next.id);
  }

  async claimForProvisioning(now: Date, leaseUntil: Date, limit: number): Promise<ProvisioningClaim[]> {
    const { tables } = this.ref;
    const due = [...tables.receivableAccounts.values()]
      .filter((a) => a.status === 'PROVISIONING' && a.provisioning.nextAttemptAt !== null && a.provisioning.nextAttemptAt <= now)
      .filter((a) => !(tables.accountLeases.get(a.id)! > now))
      .sort((a, b) => a.provisioning.nextAttemptAt!.getTime() - b.provisioning.nextAttemptAt!.getTime() || a.id - b.id)
      .slice(0, limit);
    return due.map((a) => {
      tables.accountLeases.set(a.id, leaseUntil);
      return { account: ReceivableAccount.rehydrate(a), ...holderOf(tables, a), aliasTemplate: tables.customers.get(a.customerId)!.aliasTemplate };
    });
  }

  async hostedAccount(named: { readonly cbuCvu: string | null; readonly alias: string | null }): Promise<HostedAccount | undefined> {
    const accounts = this.hosted();
    return (
      accounts.find((a) => named.cbuCvu !== null && a.cvu === named.cbuCvu) ??
      accounts.find((a) => named.alias !== null && a.alias?.toLowerCase() === named.alias.toLowerCase())
    )?.hosted;
  }

  async hostedByCvu(cvus: readonly string[]): Promise<HostedAccount[]> {
    return this.hosted()
      .filter((a) => cvus.includes(a.cvu))
      .map((a) => a.hosted);
  }

  /** Every account of both tables that has its CVU, with the alias it is also found by. */
  private hosted(): Array<{ cvu: string; alias: string | null; hosted: HostedAccount }> {
    const { tables } = this.ref;
    const as = (kind: HostedAccount['kind']) => (a: { id: number; customerId: number; cvu: string | null; alias: string | null; status: string }) =>
      a.cvu === null ? [] : [{ cvu: a.cvu, alias: a.alias, hosted: { kind, id: a.id, customerId: a.customerId, cvu: a.cvu, active: a.status === 'ACTIVE' } }];
    return [...[...tables.receivableAccounts.values()].flatMap(as('RECEIVABLE')), ...[...tables.currentAccounts.values()].flatMap(as('CURRENT'))];
  }

  async claimAliasChange(accountId: number, claim: string, now: Date, until: Date): Promise<boolean> {
    const standing = this.ref.tables.aliasClaims.get(accountId);
    if (standing && standing.until > now) return false;
    this.ref.tables.aliasClaims.set(accountId, { claim, until });
    return true;
  }

  async endAliasChange(accountId: number, claim: string): Promise<boolean> {
    if (this.ref.tables.aliasClaims.get(accountId)?.claim !== claim) return false;
    return this.ref.tables.aliasClaims.delete(accountId);
  }

  async extendAliasChange(accountId: number, claim: string, now: Date, until: Date): Promise<boolean> {
    const standing = this.ref.tables.aliasClaims.get(accountId);
    if (standing?.claim !== claim || standing.until <= now) return false;
    this.ref.tables.aliasClaims.set(accountId, { claim, until });
    return true;
  }

  async abandonedAliasChanges(now: Date, limit: number): Promise<number[]> {
    return [...this.ref.tables.aliasClaims]
      .filter(([, claim]) => claim.until <= now)
      .sort(([a, x], [b, y]) => x.until.getTime() - y.until.getTime() || a - b)
      .slice(0, limit)
      .map(([accountId]) => accountId);
  }

  async aliasInUse(alias: string, exceptAccountId: number): Promise<boolean> {
    const { tables } = this.ref;
    const same = (other: string | null) => other?.toLowerCase() === alias.toLowerCase();
    return (
      [...tables.receivableAccounts.values()].some((a) => same(a.alias) && a.id !== exceptAccountId) ||
      [...tables.currentAccounts.values()].some((a) => same(a.alias))
    );
  }

  async pendingAmountMinor(accountId: number): Promise<bigint> {
    return pendingAmountOf(this.ref.tables, accountId);
  }
}

export class InMemoryReceivableAccountQueries implements ReceivableAccountQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<ReceivableAccountRecord | undefined> {
    const found = this.source.visibleTables().receivableAccounts.get(id);
    return found && this.record(found);
  }

  async list(filter: ReceivableAccountListFilter, page: PageRequest): Promise<Page<ReceivableAccountRecord>> {
    const { clients } = this.source.visibleTables();
    const rows = [...this.source.visibleTables().receivableAccounts.values()].filter((a) => {
      const client = a.clientId === null ? undefined : clients.get(a.clientId);
      return (
        a.customerId === filter.customerId &&
        matchesCommon(a, filter) &&
        (filter.clientId === undefined || a.clientId === filter.clientId) &&
        (filter.associateId === undefined || a.associateId === filter.associateId) &&
        (filter.ownerType === undefined || ownerTypeOf(a) === filter.ownerType) &&
        (filter.clientTaxId === undefined || client?.taxId === filter.clientTaxId) &&
        (filter.branchExternalCode === undefined || client?.branchExternalCode === filter.branchExternalCode) &&
        (filter.cvu === undefined || a.cvu === filter.cvu) &&
        (filter.alias === undefined || a.alias?.toLowerCase() === filter.alias.toLowerCase()) &&
        (filter.status === undefined || a.status === filter.status)
      );
    });
    return pageOf(rows, page, (row) => this.record(row));
  }

  private record(a: ReceivableAccountSnapshot): ReceivableAccountRecord {
    const client = a.clientId === null ? undefined : this.source.visibleTables().clients.get(a.clientId);
    const associate = a.associateId === null ? undefined : this.source.visibleTables().associates.get(a.associateId);
    const owners: OwnerDetails = {
      ...(client ? { client: { displayName: client.businessName, taxId: client.taxId, branchExternalCode: client.branchExternalCode } } : {}),
      ...(associate ? { associate: { displayName: `${associate.name} ${associate.lastName}`, taxId: associate.taxId } } : {}),
    };
    return { account: ReceivableAccount.rehydrate(a), owners, pendingAmountMinor: pendingAmountOf(this.source.visibleTables(), a.id) };
  }
}
