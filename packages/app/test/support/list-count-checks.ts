import fc from 'fast-check';
import { Money, type Application } from '@rcs/domain';
import { openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { instanceOn } from './settlement-world';

/** Hours since 1970 of a timestamptz, the hour it falls in read in UTC. */
const HOUR_OF = (column: string) => `(extract(epoch FROM date_trunc('hour', ${column} AT TIME ZONE 'UTC')) / 3600)::bigint`;

/**
 * count(*) of the rows behind every maintained count of a customer (by due day and creation hour too), grouped as
 * list_counts keeps them, and the receivables' amounts summed beside (each positive whatever its type; 0 for other
 * lists), written out here rather than derived from the migrations' definitions, so a wrong key or sign there shows
 * as a mismatch. A deleted
 * webhook's attempts, which wait for the event purge in no list, are not counted (migration 034).
 */
const COUNTED_ROWS = `
  SELECT 'receivables' AS list, k.scope, k.scope_id, r.status, count(*) AS n, sum(r.amount_minor) AS amount
  FROM receivables r CROSS JOIN LATERAL (VALUES ('customer', 0::bigint), ('account', r.receivable_account_id), ('client', r.client_id), ('associate', r.associate_id),
    ('due_day', r.due_date - DATE '1970-01-01'), ('created_hour', ${HOUR_OF('r.creation_date')})) k (scope, scope_id)
  WHERE r.customer_id = :c AND k.scope_id IS NOT NULL GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'receivable_accounts', k.scope, k.scope_id, a.status, count(*), 0
  FROM receivable_accounts a CROSS JOIN LATERAL (VALUES ('customer', 0::bigint), ('client', a.client_id), ('associate', a.associate_id)) k (scope, scope_id)
  WHERE a.customer_id = :c AND k.scope_id IS NOT NULL GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'transfers', 'customer', 0, status, count(*), 0 FROM transfers WHERE customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'outbox_events', k.scope, k.scope_id, e.type, count(*), 0
  FROM outbox_events e CROSS JOIN LATERAL (VALUES ('customer', 0::bigint), ('hour', ${HOUR_OF('e.occurred_at')})) k (scope, scope_id)
  WHERE e.customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'webhook_deliveries', k.scope, k.scope_id, d.status, count(*), 0
  FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id CROSS JOIN LATERAL (VALUES ('webhook', d.webhook_id)) k (scope, scope_id)
  WHERE d.customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'contacts', 'customer', 0, '', count(*), 0 FROM contacts WHERE customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'webhooks', 'customer', 0, '', count(*), 0 FROM webhooks WHERE customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'movements', 'account', account_id, operation_type, count(*), 0 FROM movements WHERE customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'settlements', k.scope, k.scope_id, '', count(*), 0
  FROM settlements s CROSS JOIN LATERAL (VALUES ('customer', 0::bigint), ('account', s.receivable_account_id)) k (scope, scope_id)
  WHERE s.customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'clients', 'customer', 0, '', count(*), 0 FROM clients WHERE customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'associates', 'customer', 0, status, count(*), 0 FROM associates WHERE customer_id = :c GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT 'route_settlements', k.scope, k.scope_id, '', count(*), 0
  FROM route_settlements r CROSS JOIN LATERAL (VALUES ('customer', 0::bigint), ('associate', r.associate_id)) k (scope, scope_id)
  WHERE r.customer_id = :c GROUP BY 1, 2, 3, 4`;

/** Every non-zero maintained count or amount of the customer that differs from count(*) or the sum of the rows it counts. */
export async function countMismatches(db: TestDatabase, customerId: number): Promise<unknown[]> {
  const { rows } = await db.knex.raw<{ rows: unknown[] }>(
    `WITH kept AS (
       SELECT list, scope, scope_id, status, sum(n)::bigint AS n, sum(amount_minor)::bigint AS amount
       FROM list_counts WHERE customer_id = :c GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(amount_minor) <> 0
     ), counted AS (${COUNTED_ROWS})
     SELECT * FROM kept FULL JOIN counted USING (list, scope, scope_id, status)
     WHERE (kept.n, kept.amount) IS DISTINCT FROM (counted.n, counted.amount)`,
    { c: customerId },
  );
  return rows;
}

/** A collection of 5.00 into the account: a movement on it, and money for the next settlement run. */
export function collectFive(app: Application, customerId: number, receivableAccountId: number): Promise<unknown> {
  return app.collections.record.execute({
    customerId,
    receivableAccountId,
    amount: Money.parse('5.00'),
    counterParty: { name: 'Payer', taxId: '20123456786' },
  });
}

/** A list's X-Total-Count for one filter, and count(*) of the rows it should count. */
export type TotalCheck = readonly [what: string, listed: Promise<{ total: number }>, counted: Promise<number>];

/** The checks whose list answered another total than count(*). */
export async function wrongTotals(checks: readonly TotalCheck[]): Promise<Array<{ what: string; total: number; n: number }>> {
  const answers = await Promise.all(checks.map(async ([what, listed, counted]) => ({ what, total: (await listed).total, n: await counted })));
  return answers.filter(({ total, n }) => total !== n);
}

/**
 * Each account of the customer whose stats.pendingAmount, as GET and the account list answer it, differs from the
 * sum of its PENDING receivables' amounts.
 */
export async function pendingAmountMismatches(db: TestDatabase, app: Application, customerId: number): Promise<unknown[]> {
  const summed = await db.knex.raw<{ rows: Array<{ id: string; pending: string }> }>(
    `SELECT a.id, COALESCE(sum(r.amount_minor) FILTER (WHERE r.status = 'PENDING'), 0) AS pending
     FROM receivable_accounts a LEFT JOIN receivables r ON r.receivable_account_id = a.id
     WHERE a.customer_id = ? GROUP BY a.id`,
    [customerId],
  );
  const listed = await app.receivableAccounts.list.execute({ filter: { customerId }, page: { page: 1, count: 100 } });
  const wrong = [];
  for (const { id, pending } of summed.rows) {
    const got = (await app.receivableAccounts.get.execute({ customerId, accountId: Number(id) })).pendingAmountMinor;
    const inList = listed.items.find((record) => record.account.id === Number(id))?.pendingAmountMinor;
    if (got !== BigInt(pending) || inList !== BigInt(pending)) wrong.push({ account: Number(id), summed: pending, got, inList });
  }
  return wrong;
}

/**
 * A test database and the application instances racing on it: two (two pools) on a server, so their transactions
 * really race; one on PGlite, which has one connection. Opened before the suite's tests, closed after.
 */
export function racingInstances(): { db: TestDatabase; instances: Array<ReturnType<typeof instanceOn>> } {
  const world = {} as { db: TestDatabase; instances: Array<ReturnType<typeof instanceOn>> };
  beforeAll(async () => {
    world.db = await openTestDatabase();
    world.instances = world.db.storage === 'pglite' ? [instanceOn(world.db)] : [instanceOn(world.db), instanceOn(world.db)];
  });
  afterAll(async () => {
    await Promise.all(world.instances.map((instance) => instance.knex.destroy()));
    await world.db.close();
  });
  return world;
}

/**
 * Random rounds of `operation` on a fresh world each run, a round's operations at the same time spread over the
 * instances (refusals and lost races are outcomes like any other), then `check` of what they left. `first`, when
 * given, is one run of rounds tried before the random ones: what a test needs the mix to reach whatever it draws.
 */
export async function assertAfterRandomMix<W, O>(
  instances: ReadonlyArray<ReturnType<typeof instanceOn>>,
  operation: fc.Arbitrary<O>,
  run: {
    world: (app: Application) => Promise<W>;
    apply: (app: Application, w: W, op: O) => Promise<void>;
    check: (w: W) => Promise<void>;
    first?: O[][];
  },
): Promise<void> {
  const racing = instances.length > 1;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(operation, { minLength: 1, maxLength: racing ? 4 : 1 }), { minLength: 5, maxLength: 25 }), async (rounds) => {
      const w = await run.world(instances[0].app);
      for (const round of rounds) await Promise.allSettled(round.map((op, i) => run.apply(instances[i % instances.length].app, w, op)));
      await run.check(w);
    }),
    { numRuns: racing ? 12 : 6, examples: run.first ? [[run.first]] : [] },
  );
}
