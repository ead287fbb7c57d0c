import {
  signedAmount,
  type CurrentAccountListFilter,
  type CurrentAccountQueries,
  type CurrentAccountRecord,
  type LedgerMismatch,
  type LedgerQueries,
  type LedgerRepository,
  type Movement,
  type MovementListFilter,
  type NewMovement,
  type Page,
  type PageRequest,
} from '../../src';
import { nextId, type Tables, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

/** Appends a movement and applies it to the balance: the one way money moves in the fake, as in SQL. */
export function appendMovement(tables: Tables, movement: NewMovement): Movement {
  const stored: Movement = { ...movement, id: nextId(tables, 'movement') };
  tables.movements.push(stored);
  tables.balances.set(stored.accountId, (tables.balances.get(stored.accountId) ?? 0n) + signedAmount(stored));
  return stored;
}

export class InMemoryLedgerRepository implements LedgerRepository {
  constructor(private readonly ref: TablesRef) {}

  async append(movement: NewMovement): Promise<Movement> {
    if (movement.providerReference !== null && (await this.findByProviderReference(movement.providerReference))) {
      throw new Error(`provider reference ${movement.providerReference} is already recorded`);
    }
    return appendMovement(this.ref.tables, movement);
  }

  async appendAll(movements: readonly NewMovement[]): Promise<Movement[]> {
    return movements.map((m) => {
      if (m.transferId !== null && this.ref.tables.movements.some((seen) => seen.transferId === m.transferId && seen.subtype === m.subtype)) {
        throw new Error(`transfer ${m.transferId} already has its ${m.subtype} movement`);
      }
      if ((this.ref.tables.balances.get(m.accountId) ?? 0n) + signedAmount(m) < 0n) throw new Error(`account ${m.accountId} cannot go below zero`);
      return appendMovement(this.ref.tables, m);
    });
  }

  async findByProviderReference(reference: string): Promise<Movement | undefined> {
    return this.ref.tables.movements.find((m) => m.providerReference === reference);
  }
}

export class InMemoryLedgerQueries implements LedgerQueries {
  constructor(private readonly source: TablesSource) {}

  async listMovements(filter: MovementListFilter, page: PageRequest): Promise<Page<Movement>> {
    const rows = this.source
      .visibleTables()
      .movements.filter(
        (m) =>
          m.customerId === filter.customerId &&
          m.accountId === filter.accountId &&
          (filter.fromDate === undefined || m.movementDate >= filter.fromDate) &&
          (filter.toDate === undefined || m.movementDate <= filter.toDate) &&
          (filter.movementType === undefined || m.movementType === filter.movementType) &&
          (filter.operationType === undefined || m.operationType === filter.operationType),
      );
    return pageOf(
      rows,
      page,
      (m) => m,
      (m) => m.movementDate,
      filter.order,
    );
  }

  async mismatches(): Promise<LedgerMismatch[]> {
    const tables = this.source.visibleTables();
    const sums = new Map<number, bigint>();
    for (const m of tables.movements) sums.set(m.accountId, (sums.get(m.accountId) ?? 0n) + signedAmount(m));
    const accounts: Array<[number, 'RECEIVABLE' | 'CURRENT']> = [
      ...[...tables.receivableAccounts.keys()].map((id): [number, 'RECEIVABLE'] => [id, 'RECEIVABLE']),
      ...[...tables.currentAccounts.keys()].map((id): [number, 'CURRENT'] => [id, 'CURRENT']),
    ];
    return accounts
      .map(([accountId, accountKind]) => ({
        accountId,
        accountKind,
        balanceMinor: tables.balances.get(accountId) ?? 0n,
        movementsMinor: sums.get(accountId) ?? 0n,
      }))
      .filter((a) => a.balanceMinor !== a.movementsMinor);
  }
}

export class InMemoryCurrentAccountQueries implements CurrentAccountQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<CurrentAccountRecord | undefined> {
    const tables = this.source.visibleTables();
    const account = tables.currentAccounts.get(id);
    return account && { account, balanceMinor: tables.balances.get(id) ?? 0n };
  }

  async list(filter: CurrentAccountListFilter, page: PageRequest): Promise<Page<CurrentAccountRecord>> {
    const tables = this.source.visibleTables();
    const rows = [...tables.currentAccounts.values()].filter(
      (a) =>
        a.customerId === filter.customerId &&
        (filter.accountType === undefined || a.accountType === filter.accountType) &&
        (filter.status === undefined || a.status === filter.status) &&
        matchesCommon(a, filter),
    );
    return pageOf(rows, page, (account) => ({ account, balanceMinor: tables.balances.get(account.id) ?? 0n }));
  }
}
