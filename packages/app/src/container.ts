import cluster from 'node:cluster';
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Container } from 'inversify';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import {
  createApplication,
  DEFAULT_PAYOUT_POLICY,
  DEFAULT_PROVISIONING_POLICY,
  type Application,
  type BankProvider,
  type Clock,
  type ProvisioningTrigger,
  type StoragePorts,
} from '@rcs/domain';
import { ensureSetting, knexStorage, newEventIds } from '@rcs/adapters-postgres';
import { ArgentineEntityDirectory, HttpBankProvider, longestCallMs } from '@rcs/adapters-bank';
import { JwtTokenService, RandomSecretGenerator, ScryptSecretHasher } from '@rcs/adapters-http';
import { AesGcmSecretVault, HttpsWebhookSender, PublicAddressUrlPolicy, sandboxUrlPolicy } from '@rcs/adapters-http';
import { MAX_WAIT_MS } from './workers/webhook-workers';
import type { Config } from './config';
import { ServiceMetrics } from './metrics';

/** Service identifiers; only this package knows Inversify. */
export const TYPES = {
  Config: Symbol('Config'),
  Logger: Symbol('Logger'),
  Knex: Symbol('Knex'),
  Clock: Symbol('Clock'),
  Storage: Symbol('Storage'),
  Tokens: Symbol('Tokens'),
  BankProvider: Symbol('BankProvider'),
  ProvisioningTrigger: Symbol('ProvisioningTrigger'),
  WebhookSender: Symbol('WebhookSender'),
  Application: Symbol('Application'),
  Metrics: Symbol('Metrics'),
} as const;

export const systemClock: Clock = { now: () => new Date() };

/** Sandbox without JWT_SECRET: one random secret, stored in the database so all instances agree. */
export async function resolveJwtSecret(config: Config, knex: Knex): Promise<string> {
  return config.jwtSecret ?? ensureSetting(knex, 'jwt-secret', randomBytes(48).toString('base64url'));
}

/** Sandbox without WEBHOOK_SECRET_KEY: one random key, stored in the database as the JWT secret is. */
export async function resolveWebhookSecretKey(config: Config, knex: Knex): Promise<string> {
  return config.webhookSecretKey ?? ensureSetting(knex, 'webhook-secret-key', randomBytes(48).toString('base64url'));
}

/**
 * Sandbox without BANK_NOTIFICATION_SECRET: one random secret, stored in the database as the JWT secret is, so the
 * in-process simulator of any instance or HTTP process signs what any of them verifies.
 */
export async function resolveBankNotificationSecret(config: Config, knex: Knex): Promise<string | undefined> {
  if (config.bankNotificationSecret || config.mode !== 'sandbox') return config.bankNotificationSecret;
  return ensureSetting(knex, 'bank-notification-secret', randomBytes(32).toString('hex'));
}

/** Binds the adapters this configuration selects and builds the application once. */
export interface Wiring {
  readonly jwtSecret: string;
  readonly webhookSecretKey: string;
  /** Where the banking provider (or its simulator) answers. */
  readonly bankProviderUrl: string;
  /** Wakes the provisioning worker when an account is opened; nothing when no worker runs here. */
  readonly provisioningTrigger?: ProvisioningTrigger;
}

export function buildContainer(config: Config, logger: Logger, knex: Knex, wiring: Wiring): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(TYPES.Config).toConstantValue(config);
  container.bind(TYPES.Logger).toConstantValue(logger);
  container.bind(TYPES.Knex).toConstantValue(knex);
  container.bind<Clock>(TYPES.Clock).toConstantValue(systemClock);
  container.bind<ServiceMetrics>(TYPES.Metrics).toDynamicValue(() => new ServiceMetrics(cluster.isWorker && config.httpWorkers > 1));
  container.bind<StoragePorts>(TYPES.Storage).toResolvedValue((db: Knex) => knexStorage(db), [TYPES.Knex]);
  container.bind<JwtTokenService>(TYPES.Tokens).toConstantValue(new JwtTokenService(wiring.jwtSecret));
  container.bind<ProvisioningTrigger>(TYPES.ProvisioningTrigger).toConstantValue(wiring.provisioningTrigger ?? { accountOpened: () => undefined });
  container
    .bind<BankProvider>(TYPES.BankProvider)
    .toConstantValue(new HttpBankProvider({ baseUrl: wiring.bankProviderUrl, apiKey: config.bankProviderApiKey, timeoutMs: config.bankProviderTimeoutMs }));
  const sandbox = config.mode === 'sandbox';
  container
    .bind<HttpsWebhookSender>(TYPES.WebhookSender)
    .toConstantValue(new HttpsWebhookSender({ ...config.webhooks, reach: sandbox ? 'public-and-loopback' : 'public' }));
  container.bind<Application>(TYPES.Application).toResolvedValue(
    (storage: StoragePorts, clock: Clock, tokens: JwtTokenService, bank: BankProvider, provisioningTrigger: ProvisioningTrigger, sender: HttpsWebhookSender) =>
      createApplication({
        ...storage,
        clock,
        tokens,
        hasher: new ScryptSecretHasher(),
        secrets: new RandomSecretGenerator(),
        bank,
        entities: new ArgentineEntityDirectory(),
        provisioningPolicy: {
          maxAttempts: config.provisioning.maxAttempts,
          baseDelayMs: config.provisioning.retryBaseMs,
          maxDelayMs: config.provisioning.retryMaxMs,
          pendingPollMs: DEFAULT_PROVISIONING_POLICY.pendingPollMs,
          leaseMs: DEFAULT_PROVISIONING_POLICY.leaseMs,
          // Registering and checking, each as long as the provider client's longest call (renewed before any further
          // one), and the store after them.
          aliasClaimMs: 3 * longestCallMs({ timeoutMs: config.bankProviderTimeoutMs }) + 15_000,
          aliasSettleMs: longestCallMs({ timeoutMs: config.bankProviderTimeoutMs }),
          random: Math.random,
        },
        provisioningTrigger,
        webhookUrls: sandbox ? sandboxUrlPolicy : new PublicAddressUrlPolicy(),
        webhookDelivery: {
          vault: new AesGcmSecretVault(wiring.webhookSecretKey),
          sender,
          eventIds: { eventId: () => newEventIds(1)[0] },
          // Past the longest an attempt waits in the worker for a slot and the sender's deadline, with room to record
          // the result: a lease that lapses means the sender died.
          leaseMs: config.webhooks.timeoutMs + MAX_WAIT_MS + 30_000,
          retryScale: config.webhooks.retryScale,
          failureThreshold: config.webhooks.failureThreshold,
          retentionMs: config.webhooks.retentionHours * 3_600_000,
        },
        payoutPolicy: { ...DEFAULT_PAYOUT_POLICY, ...config.transfers },
      }),
    [TYPES.Storage, TYPES.Clock, TYPES.Tokens, TYPES.BankProvider, TYPES.ProvisioningTrigger, TYPES.WebhookSender],
  );
  return container;
}
