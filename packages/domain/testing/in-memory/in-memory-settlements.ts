import {
  movementCreated,
  Receivable,
  SETTLEMENT_RULE,
  type Page,
  type PageRequest,
  type ReceivableSnapshot,
  type DueAccountsPick,
  type OpenedSettlement,
  type Settlement,
  type SettlementListFilter,
  type SettlementQueries,
  type SettlementRepository,
} from '../../src';
import { nextId, type TablesRef, type TablesSource } from './in-memory-tables';
import { appendMovement } from './in-memory-ledger';
import { recordEvents } from './in-memory-outbox';
import { pageOf } from './in-memory-paging';

/** What both movements of a settlement share; each side adds its account, kind, direction and subtype. */
const settlementMovement = (s: OpenedSettlement, now: Date) =>
  ({
    customerId: s.customerId,
    operationType: 'SETTLEMENT',
    amountMinor: s.amountMinor,
    currencyCode: s.currencyCode,
    counterParty: null,
    settlementId: s.id,
    providerReference: null,
    transferId: null,
    movementDate: now,
  }) as const;

/**
 * The settlement step as the SQL does it, one account after another (transactions here run one at a time); each
 * receivable the domain's rule selects moves through the entity's own settle().
 */
export class InMemorySettlementRepository implements SettlementRepository {
  constructor(private readonly ref: TablesRef) {}

  async lockDue(pick: DueAccountsPick): Promise<readonly number[]> {
    const { tables } = this.ref;
    return [...tables.receivableAccounts.values()]
      .filter(
        (a) =>
          (tables.balances.get(a.id) ?? 0n) > 0n &&
          (pick.customerId === undefined || a.customerId === pick.customerId) &&
          (pick.accountIds === undefined || pick.accountIds.includes(a.id)) &&
          !pick.excluding?.includes(a.id),
      )
      .map((a) => a.id)
      .sort((a, b) => a - b)
      .slice(0, pick.limit);
  }

  async settle(now: Date, accountIds: readonly number[]): Promise<readonly OpenedSettlement[]> {
    const { tables } = this.ref;
    const due = accountIds.map((id) => tables.receivableAccounts.get(id)!);
    const mains = due.map((account) => [...tables.currentAccounts.values()].find((c) => c.customerId === account.customerId && c.accountType === 'MAIN'));
    const without = due.filter((_, i) => mains[i] === undefined).map((a) => a.id);
    if (without.length > 0) throw new Error(`receivable accounts ${without.join(', ')} have no MAIN current account to settle into`);
    const settlements: Settlement[] = [];
    for (const [i, account] of due.entries()) {
      const main = mains[i]!;
      const amountMinor = tables.balances.get(account.id)!;
      const id = nextId(tables, 'settlement');
      const settled = [...tables.receivables.values()]
        .filter((r) => r.receivableAccountId === account.id && SETTLEMENT_RULE.from.includes(r.status))
        .sort((a, b) => a.id - b.id)
        .map((r) => Receivable.rehydrate(r).settle(now).toSnapshot());
      for (const r of settled) tables.receivables.set(r.id, r);
      const settlement: Settlement = {
        id,
        customerId: account.customerId,
        receivableAccountId: account.id,
        currentAccountId: main.id,
        amountMinor,
        currencyCode: account.currencyCode,
        receivableIds: settled.map((r) => r.id),
        settlementDate: now,
        creationDate: now,
      };
      const out = appendMovement(tables, {
        ...settlementMovement(settlement, now),
        accountId: account.id,
        accountKind: 'RECEIVABLE',
        movementType: 'DEBIT',
        subtype: 'SETTLEMENT_OUT',
      });
      recordEvents(tables, [movementCreated(out)]);
      tables.settlements.set(id, settlement);
      settlements.push(settlement);
    }
    return settlements.map(({ receivableIds: _settledApart, ...opened }) => opened);
  }

  async *settledReceivables(settlements: readonly OpenedSettlement[], batchSize: number): AsyncIterable<readonly ReceivableSnapshot[]> {
    const { tables } = this.ref;
    const ids = settlements.flatMap((s) => tables.settlements.get(s.id)!.receivableIds).sort((a, b) => a - b);
    for (let start = 0; start < ids.length; start += batchSize) yield ids.slice(start, start + batchSize).map((id) => tables.receivables.get(id)!);
  }

  async credit(settlements: readonly OpenedSettlement[], now: Date): Promise<void> {
    const { tables } = this.ref;
    for (const s of settlements) {
      const into = appendMovement(tables, {
        ...settlementMovement(s, now),
        accountId: s.currentAccountId,
        accountKind: 'CURRENT',
        movementType: 'CREDIT',
        subtype: 'SETTLEMENT_IN',
      });
      recordEvents(tables, [movementCreated(into)]);
      tables.currentAccounts.set(s.currentAccountId, { ...tables.currentAccounts.get(s.currentAccountId)!, lastSettlementDate: now, modificationDate: now });
    }
  }
}

export class InMemorySettlementQueries implements SettlementQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Settlement | undefined> {
    return this.source.visibleTables().settlements.get(id);
  }

  async list(filter: SettlementListFilter, page: PageRequest): Promise<Page<Settlement>> {
    const rows = [...this.source.visibleTables().settlements.values()].filter(
      (s) =>
        s.customerId === filter.customerId &&
        (filter.receivableAccountId === undefined || s.receivableAccountId === filter.receivableAccountId) &&
        (filter.fromDate === undefined || s.creationDate >= filter.fromDate) &&
        (filter.toDate === undefined || s.creationDate <= filter.toDate),
    );
    return pageOf(rows, page, (s) => s);
  }
}
