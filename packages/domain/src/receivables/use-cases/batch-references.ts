import type { TransactionScope } from '../../transaction-scope';
import type { Associate } from '../../associates/associate';
import type { Client } from '../../clients/client';
import type { CurrentAccount } from '../../current-accounts/current-account';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import type { RouteSettlement } from '../../route-settlements/route-settlement';
import type { ReceivableFamily } from '../receivable-repository';
import { isPositive } from '../receivable-type';
import type { IssueReceivableInput } from './issue-receivable';

export type ReferencesScope = Pick<TransactionScope, 'receivableAccounts' | 'currentAccounts' | 'clients' | 'associates' | 'receivables' | 'routeSettlements'>;

/** Everything the items of a batch name, read with one query per kind for the whole batch. */
export interface BatchReferences {
  /** Those an item binds an associate to, or issues a child on, read again under lock (loadReferences). */
  readonly accounts: ReadonlyMap<number, ReceivableAccount>;
  /** Current accounts (any customer's) of the ids items name that no receivable account has. */
  readonly currentAccounts: ReadonlyMap<number, CurrentAccount>;
  /** Only clients an item names in place of its account's own: the ones that can only be that item's error. */
  readonly clients: ReadonlyMap<number, Client>;
  /** Kept from changing (FOR SHARE) until the transaction ends, as a single creation keeps its associate. */
  readonly associates: ReadonlyMap<number, Associate>;
  /** Parents named by negative items, locked with their active children, as a single creation locks them. */
  readonly families: ReadonlyMap<number, ReceivableFamily>;
  readonly legalNumbersInUse: ReadonlySet<string>;
  readonly routeSettlements: ReadonlyMap<string, RouteSettlement>;
}

const byId = <T extends { readonly id: number }>(rows: readonly T[]) => new Map(rows.map((row) => [row.id, row]));
const present = <T>(values: ReadonlyArray<T | null | undefined>): T[] => [...new Set(values.filter((v): v is T => v !== null && v !== undefined))];

export async function loadReferences(tx: ReferencesScope, customerId: number, items: readonly IssueReceivableInput[]): Promise<BatchReferences> {
  const accounts = byId(await tx.receivableAccounts.getMany(present(items.map((i) => i.receivableAccountId))));
  const unknownAccounts = present(items.map((i) => (accounts.has(i.receivableAccountId) ? null : i.receivableAccountId)));
  const foreignClients = items.map((i) => (i.clientId === accounts.get(i.receivableAccountId)?.owner.clientId ? null : i.clientId));
  const parents = items.map((i) => (isPositive(i.receivableType) ? null : i.parentReceivableId));
  const routed = items.map((i) => (i.associateId === undefined || i.associateId === null ? null : i.externalRoutingCode));
  // One after another: they share the transaction's connection, which runs one statement at a time anyway.
  const currentAccounts = unknownAccounts.length > 0 ? await tx.currentAccounts.getMany(unknownAccounts) : [];
  const clients = await tx.clients.getMany(present(foreignClients));
  const associates = await tx.associates.getManyForShare(present(items.map((i) => i.associateId)));
  // The accounts an item binds an associate to, and those a child is issued on (kept from being settled without
  // it), locked and read again before any parent and in id order, at the strength binding needs: the batch never
  // waits for an account while holding a receivable, as a single issue of a child holds its account, then the parent.
  const toLock = items.filter((i, n) => {
    const account = accounts.get(i.receivableAccountId);
    const binds = i.associateId !== undefined && i.associateId !== null && account?.owner.associateId === null;
    return account?.customerId === customerId && (binds || (parents[n] ?? null) !== null);
  });
  const locked = await tx.receivableAccounts.getManyForUpdate(present(toLock.map((i) => i.receivableAccountId)));
  for (const account of locked) accounts.set(account.id, account);
  const families = await tx.receivables.familiesForUpdate(present(parents));
  const legalNumbersInUse = await tx.receivables.legalNumbersInUse(customerId, present(items.map((i) => i.legalNumber)));
  const routeSettlements = await tx.routeSettlements.findByCodes(customerId, present(routed));
  return {
    accounts,
    currentAccounts: byId(currentAccounts),
    clients: byId(clients),
    associates: byId(associates),
    families: new Map(families.map((family) => [family.parent.id, family])),
    legalNumbersInUse,
    routeSettlements: new Map(routeSettlements.map((s) => [s.routeCode, s])),
  };
}
