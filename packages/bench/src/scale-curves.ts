import pg from 'pg';
import { createDatabase } from '@rcs/adapters-postgres';
import { databaseCpuMeter } from './cpu';
import type { ServiceProcess } from './service-process';
import { progress } from './stats';

/** One list request shape measured at one size. */
export interface CurvePoint {
  readonly list: 'account' | 'customer';
  readonly filter: 'none' | 'status' | 'dueDate';
  readonly page: 'first' | 'middle' | 'last' | 'cursor';
  /** Rows the list's filter matches (X-Total-Count). */
  readonly rows: number;
  /** The size step: rows the account holds. */
  readonly size: number;
  readonly requests: number;
  /** CPU microseconds per list: the service's processes and the database backends serving it. */
  readonly serviceUs: number;
  readonly databaseUs: number;
}

const FILTERS = {
  none: '',
  status: '&status=PENDING',
  // 30 of the 365 due dates the seeding spreads rows over.
  dueDate: '&fromDueDate=2026-03-01&toDueDate=2026-03-30',
} as const;

/**
 * `size` receivables on one new account of the customer (one client of its own), 1 in 10 PAID, the rest PENDING,
 * due over 365 days, created a millisecond apart: set-based SQL, then VACUUM ANALYZE so lists read as they would on
 * a database that has been running. Returns the account's id.
 */
async function seedAccount(url: string, customerId: number, size: number): Promise<number> {
  const knex = createDatabase({ url, poolSize: 1 });
  try {
    const [client] = await knex('clients')
      .insert({
        customer_id: customerId,
        business_name: `Scale ${size}`,
        tax_id: String(30_500_000_000 + size).slice(0, 11),
        document_type: 'CUIT',
        creation_date: new Date(),
        modification_date: new Date(),
        version: 1,
      })
      .returning<Array<{ id: string }>>('id');
    const [account] = await knex('receivable_accounts')
      .insert({
        customer_id: customerId,
        client_id: client.id,
        currency_code: 'ARS',
        status: 'ACTIVE',
        cvu: `98${String(client.id).padStart(20, '0')}`,
        alias: `scale.${size}`,
        creation_date: new Date(),
        modification_date: new Date(),
        version: 1,
      })
      .returning<Array<{ id: string }>>('id');
    const started = Date.now();
    for (let from = 1; from <= size; from += 100_000) {
      const to = Math.min(size, from + 99_999);
      await knex.raw(
        `INSERT INTO receivables (customer_id, receivable_account_id, client_id, amount_minor, currency_code, receivable_type, status, receivable_date,
          due_date, creation_date, modification_date, version)
         SELECT ?, ?, ?, 1000 + g % 997, 'ARS', 'INVOICE', CASE WHEN g % 10 = 0 THEN 'PAID' ELSE 'PENDING' END, DATE '2026-01-01',
           DATE '2026-01-01' + g % 365, now() - (? - g || ' milliseconds')::interval, now(), 1
         FROM generate_series(?::int, ?::int) g`,
        [customerId, account.id, client.id, size, from, to],
      );
      progress(`scale curves: seeding ${to.toLocaleString('en')} / ${size.toLocaleString('en')} rows (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
    await knex.raw('VACUUM ANALYZE receivables');
    await knex.raw('VACUUM ANALYZE list_counts');
    return Number(account.id);
  } finally {
    await knex.destroy();
  }
}

/** Repeats one list request for `seconds`, one at a time; the CPU it cost per request. */
async function measure(admin: pg.Client, database: string, service: ServiceProcess, token: string, path: string, seconds: number) {
  const get = () => fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const warm = await get();
  if (warm.status !== 200) throw new Error(`${path} answered ${warm.status}: ${await warm.text()}`);
  const total = Number(warm.headers.get('x-total-count'));
  const next = /<([^>]+)>; rel="next"/.exec(warm.headers.get('link') ?? '')?.[1];
  await warm.arrayBuffer();
  const [service0, databaseCpu] = [service.cpuSeconds(), await databaseCpuMeter(admin, database)];
  let requests = 0;
  for (const until = Date.now() + seconds * 1000; Date.now() < until || requests < 3; requests++) await (await get()).arrayBuffer();
  const [service1, databaseSeconds] = [service.cpuSeconds(), await databaseCpu()];
  const perRequest = (s: number) => (s * 1e6) / requests;
  return { total, next, requests, serviceUs: perRequest(service1 - service0), databaseUs: perRequest(databaseSeconds) };
}

/**
 * The cost of a list as the rows it matches grow: for each size, a new account holding that many receivables;
 * its list, and the customer's unfiltered list (which holds every size so far), each without filter, by status
 * and by a dueDate range; page 1, the middle page, the last page, and the page after the middle one reached
 * through the middle page's Link cursor.
 */
export async function scaleCurves(url: string, service: ServiceProcess, sizes: readonly number[], seconds: number): Promise<CurvePoint[]> {
  const token = await service.login();
  const database = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const points: CurvePoint[] = [];
  try {
    const customer = await admin.query<{ id: string }>(`SELECT id FROM customers WHERE name = 'Sandbox Customer 1'`);
    const customerId = Number(customer.rows[0].id);
    // A fresh process runs its first requests unoptimised: warmed up, the smallest size is not measured cold.
    await measure(admin, database, service, token, '/v1/receivables?count=20', seconds * 3);
    for (const size of sizes) {
      const accountId = await seedAccount(url, customerId, size);
      for (const [list, base] of [
        ['account', `/v1/receivables?receivableAccountId=${accountId}`],
        ['customer', '/v1/receivables?'],
      ] as const) {
        for (const [filter, query] of Object.entries(FILTERS) as Array<[CurvePoint['filter'], string]>) {
          const path = `${base}${query}&count=20`;
          const first = await measure(admin, database, service, token, path, seconds);
          const lastPage = Math.max(1, Math.ceil(first.total / 20));
          const middlePage = Math.max(1, Math.ceil(lastPage / 2));
          const middle = await measure(admin, database, service, token, `${path}&page=${middlePage}`, seconds);
          const last = await measure(admin, database, service, token, `${path}&page=${lastPage}`, seconds);
          const cursor = middle.next === undefined ? undefined : await measure(admin, database, service, token, middle.next, seconds);
          for (const [page, m] of [
            ['first', first],
            ['middle', middle],
            ['last', last],
            ['cursor', cursor],
          ] as const) {
            if (m === undefined) continue;
            points.push({ list, filter, page, rows: first.total, size, requests: m.requests, serviceUs: m.serviceUs, databaseUs: m.databaseUs });
          }
          progress(
            `scale curves: ${list} list, ${filter}, ${first.total.toLocaleString('en')} rows: first ${(first.serviceUs + first.databaseUs).toFixed(0)} us, ` +
              `middle ${(middle.serviceUs + middle.databaseUs).toFixed(0)} us, last ${(last.serviceUs + last.databaseUs).toFixed(0)} us`,
          );
        }
      }
    }
  } finally {
    await admin.end();
  }
  return points;
}
