/**
 * Counts of a table's rows kept in `list_counts` by triggers, so a list's X-Total-Count reads a handful of rows
 * instead of counting every matching one. Each count is kept per customer, per scope (the whole customer, or one
 * value of a scope column such as the account) and per status, spread over SLOTS rows: a transaction adds to the
 * slot of its connection (backend pid; slots 1 to SLOTS, slot 0 being the fold's), so concurrent creations on one
 * account update different rows instead of queueing on one; a read sums the slots. The triggers fire once per statement on its transition tables, so a
 * set-based update of a million rows (the settlement sweep) costs one grouped upsert, not a million, and every
 * writer of the table, present or future, keeps the counts exact in its own transaction without knowing of them.
 *
 * A migration adding a counted table calls countedListSql once; it is kept here, not inlined, so later
 * migrations produce the same triggers. Changing it changes no migration already run: a change to what the
 * counting functions do comes with a migration that re-creates them (countingFunctionSql), as 025 does, from each
 * table's latest definition (the receivables': 042's RECEIVABLES_BY_DAY_AND_HOUR, which sums their amounts beside
 * their counts and counts them by due day and creation hour too; the events': 042's EVENTS_BY_HOUR).
 */
export const SLOTS = 8;

export interface CountedTable {
  /** The list's name in list_counts (the table's name by convention). */
  readonly list: string;
  readonly table: string;
  /** Scope name -> the column holding its id; null ids are not counted under that scope. */
  readonly scopes: Readonly<Record<string, string>>;
  /**
   * The column splitting each count (list_counts.status), for the filter a list is most read with: `status`
   * unless told (an event's `type`); null for a list with no such filter, whose counts all hold ''.
   */
  readonly status?: string | null;
  /** False for a list only ever read within one of its scopes (a webhook's attempts): no count of the whole customer's. */
  readonly wholeCustomer?: boolean;
  /**
   * SQL of a row's amount in integer minor units, given the row's alias, summed beside each count in
   * list_counts.amount_minor (migration 028); none for a list whose counts alone are read.
   */
  readonly amount?: (row: string) => string;
  /**
   * Scopes of the whole customer by a time bucket (migration 042): scope name -> SQL of a row's bucket number given
   * the row's alias (its due date's day, its creation's hour, since 1970), null for a row in none. A window of
   * buckets sums a few rows a bucket (list-counts.ts), however many rows each holds.
   */
  readonly buckets?: Readonly<Record<string, (row: string) => string>>;
}

/** The list_counts table; created once, by the first migration that counts a list. */
export const LIST_COUNTS_SQL = `
  CREATE TABLE list_counts (
    list        TEXT NOT NULL,
    customer_id BIGINT NOT NULL,
    -- 'customer' (scope_id 0) or the name of one of the list's scope columns.
    scope       TEXT NOT NULL,
    scope_id    BIGINT NOT NULL,
    status      TEXT NOT NULL,
    slot        SMALLINT NOT NULL,
    n           BIGINT NOT NULL,
    PRIMARY KEY (list, customer_id, scope, scope_id, status, slot)
  );
`;

/**
 * One row per counted scope of each row of `rows`, with `delta` to its count and, for a list with amounts, its
 * amount times `amountSign` (the count's sign unless told: the amounts of rows already counted are added with 0).
 */
function keysOf(counted: CountedTable, rows: string, delta: number, amountSign = delta): string {
  const scopes = [
    ...Object.entries(counted.scopes).map(([scope, column]) => `('${scope}', r.${column})`),
    ...Object.entries(counted.buckets ?? {}).map(([scope, bucket]) => `('${scope}', ${bucket('r')})`),
  ];
  if (counted.wholeCustomer !== false) scopes.unshift(`('customer', 0::bigint)`);
  const status = counted.status === null ? `''::text` : `r.${counted.status ?? 'status'}`;
  const amount = counted.amount ? `, ${amountSign} * ${counted.amount('r')} AS amount` : '';
  return `SELECT r.customer_id, k.scope, k.scope_id, ${status} AS status, ${delta} AS delta${amount}
          FROM ${rows} r CROSS JOIN LATERAL (VALUES ${scopes.join(', ')}) AS k (scope, scope_id)
          WHERE k.scope_id IS NOT NULL`;
}

/**
 * Adds the deltas of `deltas` to the connection's slot, in scope order (scope, its id, then customer), so two
 * statements lock shared rows alike; and a transaction writing in several statements, each on higher ids of a scope
 * than the one before (a dispatch's chunks of attempts, in webhook order), takes them in that order too. In customer
 * order, a webhook of a later customer with a lower id was locked after one with a higher id, and a dispatch's
 * chunks deadlocked with the recording of the same webhooks' results.
 */
function upsert(counted: CountedTable, deltas: string): string {
  // An amount rides in its count's row: an edit of a PENDING amount changes no count, and is written all the same.
  const [column, sum, changed, add] = counted.amount
    ? [', amount_minor', ', sum(d.amount)', ' OR sum(d.amount) <> 0', ', amount_minor = c.amount_minor + excluded.amount_minor']
    : ['', '', '', ''];
  return `INSERT INTO list_counts AS c (list, customer_id, scope, scope_id, status, slot, n${column})
          SELECT '${counted.list}', d.customer_id, d.scope, d.scope_id, d.status, pg_backend_pid() % ${SLOTS} + 1, sum(d.delta)${sum}
          FROM (${deltas}) d
          GROUP BY d.customer_id, d.scope, d.scope_id, d.status
          HAVING sum(d.delta) <> 0${changed}
          ORDER BY d.scope, d.scope_id, d.customer_id, d.status
          ON CONFLICT (list, customer_id, scope, scope_id, status, slot) DO UPDATE SET n = c.n + excluded.n${add};`;
}

/** The function `counted`'s triggers run: created, or replaced where an earlier version of it exists. */
export function countingFunctionSql(counted: CountedTable): string {
  return `
    CREATE OR REPLACE FUNCTION count_${counted.table}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${upsert(counted, keysOf(counted, 'new_rows', 1))}
      ELSIF TG_OP = 'DELETE' THEN
        ${upsert(counted, keysOf(counted, 'old_rows', -1))}
      ELSIF TG_OP = 'UPDATE' THEN
        -- Rows whose counted columns did not change add and take away the same: their groups sum to 0 and are skipped.
        ${upsert(counted, `${keysOf(counted, 'old_rows', -1)} UNION ALL ${keysOf(counted, 'new_rows', 1)}`)}
      ELSE
        DELETE FROM list_counts WHERE list = '${counted.list}';
      END IF;
      RETURN NULL;
    END
    $fn$;
  `;
}

/**
 * The triggers keeping `counted`'s counts, and the counts of the rows it already holds. A row's customer never
 * changes, so a list counted by customer alone (no scopes, no status) has no UPDATE trigger: its updates (a
 * webhook's last delivery, on every attempt) would pay for capturing their rows and change no count.
 */
export function countedListSql(counted: CountedTable): string {
  const fn = `count_${counted.table}`;
  const { table } = counted;
  const updates = counted.status !== null || Object.keys({ ...counted.scopes, ...counted.buckets }).length > 0;
  return `
    ${countingFunctionSql(counted)}
    CREATE TRIGGER ${table}_counted_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    ${
      updates
        ? `CREATE TRIGGER ${table}_counted_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
             FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`
        : ''
    }
    CREATE TRIGGER ${table}_counted_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    CREATE TRIGGER ${table}_counted_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
    ${upsert(counted, keysOf(counted, table, 1))}
  `;
}

/** The amounts of the rows `counted` already holds, added to their counts' rows (whose amounts held 0). */
export function summedAmountsSql(counted: CountedTable): string {
  return upsert(counted, keysOf(counted, counted.table, 0, 1));
}

/** The counts of the rows `counted` already holds in its bucket scopes alone (its other counts are kept already). */
export function bucketCountsSql(counted: CountedTable): string {
  const buckets: CountedTable = { ...counted, scopes: {}, wholeCustomer: false };
  return upsert(buckets, keysOf(buckets, counted.table, 1));
}

/** Undoes countedListSql. */
export function uncountedListSql(counted: CountedTable): string {
  return `DROP FUNCTION count_${counted.table}() CASCADE; DELETE FROM list_counts WHERE list = '${counted.list}';`;
}

/**
 * A trigger removing a scope's counts with the row it is named for (`parent`: a webhook, for its attempts' counts).
 * The cascade to the counted rows takes each count to 0 but leaves its rows, one per status and slot, which
 * nothing would ever read or remove. Deferred to the commit: the cascade's count triggers fire after any trigger
 * of the parent's DELETE itself, and would put back the rows it removed. The rows that the scopes of parents
 * already deleted left go with it.
 */
export function scopeRemovedWithSql(list: string, scope: string, parent: string): string {
  const fn = `uncount_${list}_of_${parent}`;
  return `
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM list_counts
      WHERE list = '${list}' AND customer_id = OLD.customer_id AND scope = '${scope}' AND scope_id = OLD.id;
      RETURN NULL;
    END
    $fn$;
    CREATE CONSTRAINT TRIGGER ${parent}_uncount_${list} AFTER DELETE ON ${parent} DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION ${fn}();
    DELETE FROM list_counts c
    WHERE c.list = '${list}' AND c.scope = '${scope}' AND NOT EXISTS (SELECT 1 FROM ${parent} p WHERE p.id = c.scope_id);
  `;
}

/** Undoes scopeRemovedWithSql (the rows it removed held 0). */
export function scopeKeptSql(list: string, parent: string): string {
  return `DROP FUNCTION uncount_${list}_of_${parent}() CASCADE;`;
}
