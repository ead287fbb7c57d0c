import pino from 'pino';
import { Money, type Application, type StoragePorts } from '@rcs/domain';
import { createDatabase } from '@rcs/adapters-postgres';
import type { TestDatabase } from '@rcs/adapters-postgres/testing';
import { loadConfig } from '../../src/config';
import { buildContainer, TYPES } from '../../src/container';

/** An application instance of its own (own pool) on a test database, as a second replica would be. */
export function instanceOn(db: TestDatabase) {
  const knex = createDatabase({ url: db.url, schema: db.schema, poolSize: 4, embedded: db.storage === 'pglite' });
  const config = loadConfig({ APP_MODE: 'sandbox', JWT_SECRET: 'x'.repeat(40), WORKERS_ENABLED: 'false' });
  const container = buildContainer(config, pino({ level: 'silent' }), knex, {
    jwtSecret: 'x'.repeat(40),
    bankProviderUrl: 'http://127.0.0.1:9',
    webhookSecretKey: 'w'.repeat(40),
  });
  return { app: container.get<Application>(TYPES.Application), storage: container.get<StoragePorts>(TYPES.Storage), knex };
}

/**
 * A customer with `accounts` ACTIVE receivable accounts, each with two collections and a PAID receivable.
 * Accounts are activated directly in SQL: provisioning is not what these tests are about.
 */
export async function seedMoney(db: TestDatabase, app: Application, accounts: number): Promise<{ customerId: number; collectedMinor: bigint }> {
  const { customer } = await app.customers.create.execute({ name: `money-${process.pid}-${Date.now()}` });
  const customerId = customer.id;
  let collectedMinor = 0n;
  for (let i = 0; i < accounts; i++) {
    const taxId = String(30_000_000_000 + i).padStart(11, '0');
    const [client] = await db
      .knex('clients')
      .insert({
        customer_id: customerId,
        business_name: `Payer ${i}`,
        tax_id: taxId,
        document_type: 'CUIT',
        creation_date: new Date(),
        modification_date: new Date(),
        version: 1,
      })
      .returning('id');
    const account = await app.receivableAccounts.open.execute({ customerId, clientId: Number(client.id) });
    await db
      .knex('receivable_accounts')
      .where({ id: account.id })
      .update({ status: 'ACTIVE', cvu: `00000449${String(account.id).padStart(14, '0')}`, alias: `money.${account.id}`, next_attempt_at: null });
    const receivable = await app.receivables.issue.execute({
      customerId,
      receivableAccountId: account.id,
      amount: Money.parse(100 + i),
      currencyCode: 'ARS',
      receivableType: 'INVOICE',
    });
    await app.receivables.changeStatus.execute({ customerId, receivableId: receivable.id, status: 'PAID' });
    for (const amount of [`${60 + i}.25`, '39.75']) {
      const money = Money.parse(amount);
      await app.collections.record.execute({
        customerId,
        receivableAccountId: account.id,
        amount: money,
        counterParty: { name: 'Payer', taxId: '20123456786' },
      });
      collectedMinor += money.minor;
    }
  }
  return { customerId, collectedMinor };
}

/** What the database says about a customer's money after settlement. */
export async function moneyState(db: TestDatabase, customerId: number) {
  const sum = async (table: string) => BigInt((await db.knex(table).where({ customer_id: customerId }).sum({ s: 'balance_minor' }))[0].s ?? 0);
  const settlementsPerAccount = await db
    .knex('settlements')
    .where({ customer_id: customerId })
    .groupBy('receivable_account_id')
    .select('receivable_account_id')
    .count({ n: '*' });
  return {
    receivableBalances: await sum('receivable_accounts'),
    currentBalances: await sum('current_accounts'),
    settlements: settlementsPerAccount.length,
    maxSettlementsPerAccount: Math.max(0, ...settlementsPerAccount.map((r) => Number(r.n))),
    settledReceivables: Number((await db.knex('receivables').where({ customer_id: customerId, status: 'SETTLED' }).count({ n: '*' }))[0].n),
    settlementsWithoutPair: Number(
      (
        await db.knex.raw(
          `SELECT count(*) AS n FROM settlements s WHERE s.customer_id = ? AND (SELECT count(*) FROM movements m WHERE m.settlement_id = s.id) <> 2`,
          [customerId],
        )
      ).rows[0].n,
    ),
  };
}
