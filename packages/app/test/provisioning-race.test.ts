import { Client, createApplication, DEFAULT_CUSTOMER_SETTINGS, DEFAULT_PROVISIONING_POLICY, type BankProvider, type CvuRequest } from '@rcs/domain';
import {
  aClientDetails,
  CodeEntityDirectory,
  fakeWebhookPorts,
  FixedClock,
  PlainSecretHasher,
  ReadableTokenIssuer,
  SequentialSecretGenerator,
  validTaxId,
} from '@rcs/domain/testing';
import { createDatabase, knexStorage } from '@rcs/adapters-postgres';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { HttpBankProvider, startBankSimulator } from '@rcs/adapters-bank';

/** Two service instances (own pools, own application) provisioning the same database at the same time. */
describe('provisioning with two instances at once', () => {
  let db: TestDatabase;
  let simulator: Awaited<ReturnType<typeof startBankSimulator>>;
  beforeAll(async () => {
    db = await openTestDatabase();
    simulator = await startBankSimulator(0, { provisioningDelayMs: 0 });
  });
  afterAll(async () => {
    await simulator.stop();
    await db.close();
  });

  itOnRealServer('two instances racing need two connections; PGlite has one')(
    'asks the provider once per account and activates each account once',
    async () => {
      const asked: string[] = [];
      const http = new HttpBankProvider({ baseUrl: simulator.url });
      const recording: BankProvider = {
        requestCvu: (request: CvuRequest) => {
          asked.push(request.requestId);
          return http.requestCvu(request);
        },
        resolveAlias: (alias) => http.resolveAlias(alias),
        registerAlias: (registration) => http.registerAlias(registration),
        sendPayout: (request) => http.sendPayout(request),
        getPayout: (payoutId) => http.getPayout(payoutId),
      };
      const instances = [0, 1].map(() => {
        const knex = createDatabase({ url: db.url, schema: db.schema, poolSize: 4, embedded: db.storage === 'pglite' });
        const storage = knexStorage(knex);
        const app = createApplication({
          ...storage,
          clock: new FixedClock(new Date()),
          hasher: new PlainSecretHasher(),
          secrets: new SequentialSecretGenerator(),
          tokens: new ReadableTokenIssuer(),
          bank: recording,
          entities: new CodeEntityDirectory(),
          provisioningPolicy: { ...DEFAULT_PROVISIONING_POLICY, random: Math.random },
          provisioningTrigger: { accountOpened: () => undefined },
          ...fakeWebhookPorts(),
        });
        return { knex, uow: storage.uow, app };
      });
      try {
        const [{ uow, app }] = instances;
        const now = new Date(Date.now() - 1000);
        const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'Race', creationDate: now }));
        const accounts = [];
        for (let i = 0; i < 40; i++) {
          const { client } = await uow.run((tx) =>
            tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails({ taxId: validTaxId('30', 10000000 + i * 10) }), now)),
          );
          accounts.push(await app.receivableAccounts.open.execute({ customerId: customer.id, clientId: client.id }));
        }
        const drain = async (instance: (typeof instances)[number]) => {
          for (let pass = 0; pass < 50; pass++) {
            const { outcomes, failures } = await instance.app.receivableAccounts.provision.execute({ limit: 5 });
            if (failures.length > 0) throw failures[0].error;
            if (Object.values(outcomes).every((n) => n === 0)) return;
          }
        };
        await Promise.all(instances.map(drain));

        expect(asked).toHaveLength(accounts.length);
        expect(new Set(asked).size).toBe(accounts.length);
        const rows = await db.knex('receivable_accounts').where({ customer_id: customer.id });
        expect(rows.every((r) => r.status === 'ACTIVE' && r.cvu !== null && r.locked_until === null)).toBe(true);
        const activated = await db.knex('outbox_events').where({ customer_id: customer.id, type: 'receivable-account.activated' });
        expect(activated).toHaveLength(accounts.length);
      } finally {
        await Promise.all(instances.map((i) => i.knex.destroy()));
      }
    },
  );
});
