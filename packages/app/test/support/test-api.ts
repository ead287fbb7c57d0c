import type { Express } from 'express';
import pino, { type Logger } from 'pino';
import request from 'supertest';
import type { Application } from '@rcs/domain';
import { databaseReady } from '@rcs/adapters-postgres';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { loadConfig } from '../../src/config';
import { buildContainer, TYPES } from '../../src/container';
import { bootstrapSandbox, httpAppOf } from '../../src/service';
import { assertMatchesOpenApi } from './openapi-contract';
import { startBankSimulator } from '@rcs/adapters-bank';
import type { HttpsWebhookSender } from '@rcs/adapters-http';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const TEST_WEBHOOK_SECRET_KEY = 'test-key-that-is-long-enough-to-seal-webhook-secrets';
/** What the tests' provider signs its notifications with. */
export const TEST_NOTIFICATION_SECRET = 'test-secret-of-the-banking-providers-notifications';
export const SANDBOX = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' };
export const SANDBOX2 = { clientId: 'sandbox-client-2', clientSecret: 'sandbox-secret-2' };

/** For requests racing each other: the test API's PGlite pool has one connection, so there they would queue. */
export const itRacing = itOnRealServer("concurrent requests need several connections; on PGlite's one they run one after another");

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** A header given as a list is sent once per value. */
  headers?: Record<string, string | string[]>;
}

export interface TestApi {
  readonly http: Express;
  /** The same service as a second instance would serve it: its own process-local state (replay cache), same storage. */
  otherInstance(): Express;
  readonly app: Application;
  readonly db: TestDatabase;
  /** The banking provider's simulator this service talks to. */
  readonly bankUrl: string;
  /** Runs provisioning passes until no account is due now or within the second (the simulator assigns at once in tests). */
  provisionAll(): Promise<void>;
  /** Sends a request and checks the response against the OpenAPI document. */
  call(method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, options?: CallOptions): Promise<request.Response>;
  login(credentials: { clientId: string; clientSecret: string }): Promise<string>;
  close(): Promise<void>;
}

/** The real Express app on real storage (the run's PostgreSQL or PGlite), with the two sandbox customers. */
export async function startTestApi(env: Record<string, string> = {}, logger: Logger = pino({ level: 'silent' })): Promise<TestApi> {
  const db = await openTestDatabase();
  const config = loadConfig({
    APP_MODE: 'sandbox',
    JWT_SECRET: TEST_JWT_SECRET,
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
    BANK_NOTIFICATION_SECRET: TEST_NOTIFICATION_SECRET,
    RATE_LIMIT_PER_MINUTE: '1000000',
    SOURCE_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    WORKERS_ENABLED: 'false',
    ...env,
  });
  const bank = await startBankSimulator(0, { provisioningDelayMs: 0, hangMs: 1_000 });
  const container = buildContainer(config, logger, db.knex, {
    jwtSecret: TEST_JWT_SECRET,
    webhookSecretKey: TEST_WEBHOOK_SECRET_KEY,
    bankProviderUrl: bank.url,
  });
  const app = container.get<Application>(TYPES.Application);
  await bootstrapSandbox(app, config, logger);
  const ready = () => databaseReady(db.knex);
  const http = httpAppOf(container, ready);
  const call: TestApi['call'] = async (method, url, options = {}) => {
    let req = request(http)[method](url);
    if (options.token) req = req.set('Authorization', `Bearer ${options.token}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set({ [name]: value });
    const res = options.body === undefined ? await req : await req.send(options.body as object);
    // supertest parses JSON into body and leaves text (the metrics) in text.
    const text = /^text\//.test(res.headers['content-type'] ?? '');
    assertMatchesOpenApi(method, url, res.status, res.headers['content-type'], text ? res.text : res.body);
    return res;
  };
  return {
    http,
    otherInstance: () => httpAppOf(container, ready),
    app,
    db,
    bankUrl: bank.url,
    call,
    async login(credentials) {
      const res = await call('post', '/v1/auth/login', { body: credentials });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.accessToken as string;
    },
    async provisionAll() {
      for (let pass = 0; pass < 50; pass++) {
        const { outcomes, failures } = await app.receivableAccounts.provision.execute({ limit: 100 });
        if (failures.length > 0) throw failures[0].error;
        if (Object.values(outcomes).some((n) => n > 0)) continue;
        // Nothing was due: done, unless a retry falls due within the second (the tests' retry delays are a few ms,
        // and a pass may come before one is due).
        const { next } = (await db.knex('receivable_accounts').where({ status: 'PROVISIONING' }).min({ next: 'next_attempt_at' }).first()) as {
          next: Date | null;
        };
        const waitMs = next === null ? Infinity : new Date(next).getTime() - Date.now();
        if (waitMs > 1_000) return;
        await new Promise((resolve) => setTimeout(resolve, Math.max(waitMs, 1)));
      }
    },
    /** Also ends the suite with the ledger verified: whatever its tests did, every balance equals its movements. */
    async close() {
      const mismatches = await app.ledger.verify.execute();
      container.get<HttpsWebhookSender>(TYPES.WebhookSender).close();
      await bank.stop();
      await db.close();
      expect(mismatches).toEqual([]);
    },
  };
}

/** Starts one API for a describe block (logging to `logger`, silent by default) and logs in as both sandbox customers. */
export function useTestApi(env: Record<string, string> = {}, logger?: Logger) {
  const ctx = {} as { api: TestApi; token: string; otherToken: string };
  beforeAll(async () => {
    ctx.api = await startTestApi(env, logger);
    ctx.token = await ctx.api.login(SANDBOX);
    ctx.otherToken = await ctx.api.login(SANDBOX2);
  });
  afterAll(async () => {
    await ctx.api?.close();
  });
  return ctx;
}
