import type {
  AssociateSnapshot,
  ClientSnapshot,
  ContactSnapshot,
  ReceivableAccountSnapshot,
  ReceivableSnapshot,
  RouteSettlement,
  Movement,
  Settlement,
  TransferSnapshot,
  CredentialSnapshot,
  CurrentAccount,
  Customer,
  StoredEvent,
  StoredResponse,
  WebhookDelivery,
  WebhookSnapshot,
} from '../../src';

export interface StoredIdempotencyRecord {
  readonly fingerprint: string;
  readonly expiresAt: Date;
  readonly response: StoredResponse | null;
}

/** An outbox row: the event and its position, in the order events were recorded. */
export interface OutboxRow extends StoredEvent {
  readonly seq: number;
}

/** An attempt as stored: what the history shows, and what the sender works with. */
export interface StoredDelivery extends WebhookDelivery {
  readonly scheduleStep: number | null;
  readonly payload: string;
  readonly claimedUntil: Date | null;
  readonly nextAttemptAt: Date | null;
}

/** Every table of the in-memory store, plain data only so a transaction can copy it whole. */
export interface Tables {
  sequences: Record<string, number>;
  customers: Map<number, Customer>;
  credentials: Map<number, CredentialSnapshot>;
  currentAccounts: Map<number, CurrentAccount>;
  clients: Map<number, ClientSnapshot>;
  associates: Map<number, AssociateSnapshot>;
  receivableAccounts: Map<number, ReceivableAccountSnapshot>;
  /** Provisioning leases: account id to the time the lease ends. */
  accountLeases: Map<number, Date>;
  /** Claims of alias changes: account id to the claim and the time it ends. */
  aliasClaims: Map<number, { readonly claim: string; readonly until: Date }>;
  receivables: Map<number, ReceivableSnapshot>;
  routeSettlements: Map<number, RouteSettlement>;
  movements: Movement[];
  /** Account id (receivable or current) to its balance in minor units. */
  balances: Map<number, bigint>;
  settlements: Map<number, Settlement>;
  transfers: Map<number, TransferSnapshot>;
  contacts: Map<number, ContactSnapshot>;
  webhooks: Map<number, WebhookSnapshot>;
  webhookDeliveries: Map<number, StoredDelivery>;
  /** Webhook id to its run of consecutive failed attempts. */
  webhookFailures: Map<number, number>;
  /** Deleted webhooks whose attempts the purge has not taken yet. */
  deletedWebhooks: Set<number>;
  idempotency: Map<string, StoredIdempotencyRecord>;
  outbox: OutboxRow[];
  /** Positions (seq) of the events no dispatch has taken yet. */
  pendingEvents: Set<number>;
}

export function emptyTables(): Tables {
  return {
    sequences: {},
    customers: new Map(),
    credentials: new Map(),
    currentAccounts: new Map(),
    clients: new Map(),
    associates: new Map(),
    receivableAccounts: new Map(),
    accountLeases: new Map(),
    aliasClaims: new Map(),
    receivables: new Map(),
    routeSettlements: new Map(),
    movements: [],
    balances: new Map(),
    settlements: new Map(),
    transfers: new Map(),
    contacts: new Map(),
    webhooks: new Map(),
    webhookDeliveries: new Map(),
    webhookFailures: new Map(),
    deletedWebhooks: new Set(),
    idempotency: new Map(),
    outbox: [],
    pendingEvents: new Set(),
  };
}

/**
 * A transaction's own copy of the tables. Outbox rows are never changed once recorded, so they are shared, not
 * copied: a copy would also strip their exact amounts (ExactAmount) of what makes them write as numbers.
 */
export function copyTables(tables: Tables): Tables {
  return { ...structuredClone({ ...tables, outbox: [] }), outbox: [...tables.outbox] };
}

/** The rows of `table` with any of `ids`, each once. */
export function presentIn<T>(table: ReadonlyMap<number, T>, ids: readonly number[]): T[] {
  return [...new Set(ids)].flatMap((id) => {
    const row = table.get(id);
    return row === undefined ? [] : [row];
  });
}

/** Next value of a named sequence; accounts of both kinds share the 'account' sequence, as in PostgreSQL. */
export function nextId(tables: Tables, sequence: string): number {
  const value = (tables.sequences[sequence] ?? 0) + 1;
  tables.sequences[sequence] = value;
  return value;
}

/** Where in-memory queries read from: a free unit of work's committed tables, or a bound one's working copy. */
export interface TablesSource {
  visibleTables(): Tables;
}

/** The working copy a transaction reads and writes; a savepoint swaps `tables` back on failure. */
export interface TablesRef {
  tables: Tables;
  /** Set once the transaction committed or rolled back: work that outlived it must not run on it. */
  ended?: boolean;
  /** Set when joined work failed: the transaction must roll back (see UnitOfWork). */
  rollbackOnly?: { cause: unknown };
}

/** Saves a changed row only if it is the direct successor of the stored version (optimistic check). */
export function saveVersioned<T extends { id: number; version: number }>(rows: Map<number, T>, next: T, error: () => Error): void {
  const stored = rows.get(next.id);
  if (!stored || stored.version !== next.version - 1) throw error();
  rows.set(next.id, next);
}
