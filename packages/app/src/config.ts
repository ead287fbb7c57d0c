import { readFileSync } from 'node:fs';
import path from 'node:path';
import { longestCallMs } from '@rcs/adapters-bank';
import type { RateLimits } from '@rcs/adapters-http';

export type AppMode = 'sandbox' | 'production';

/** The customers the sandbox makes, with credentials whose defaults the README gives. */
export const SANDBOX_CUSTOMER_NAMES = ['Sandbox Customer 1', 'Sandbox Customer 2'] as const;

export interface SandboxCredential {
  readonly customerName: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface Config {
  readonly mode: AppMode;
  readonly port: number;
  /** Absent: embedded PGlite under dataDir. */
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly dbPoolSize: number;
  /** HTTP processes sharing the port (node:cluster); each has its own pool of dbPoolSize connections. */
  readonly httpWorkers: number;
  /** Absent in sandbox: generated once and kept in the database, so every instance signs alike. */
  readonly jwtSecret?: string;
  /** Absent in sandbox: the provider simulator runs in this process. */
  readonly bankProviderUrl?: string;
  readonly bankProviderApiKey?: string;
  /**
   * Verifies the provider's incoming-transfer notifications. The sandbox without one makes its own, kept in the
   * database like the JWT secret (resolveBankNotificationSecret): a well-known default let anyone credit any
   * customer's account.
   */
  readonly bankNotificationSecret?: string;
  readonly bankProviderTimeoutMs: number;
  readonly sandboxProvisioningDelayMs: number;
  readonly provisioning: {
    readonly maxAttempts: number;
    readonly retryBaseMs: number;
    readonly retryMaxMs: number;
    readonly pollMs: number;
    readonly batchSize: number;
  };
  /** node-cron expression, Buenos Aires time: when PENDING receivables past due become EXPIRED. */
  readonly expirationCron: string;
  /** node-cron expression: when the settlement cycle sweeps collected funds into MAIN current accounts. */
  readonly settlementCron: string;
  /** node-cron expression: when idempotency records past their 24 hours are deleted. */
  readonly idempotencyPurgeCron: string;
  /** node-cron expression: when the transfer worker pays due transfers and reconciles those a stopped worker left. */
  readonly transferCron: string;
  readonly transfers: {
    /** How long a transfer being paid stays with its worker before another reconciles it: above the provider client's worst case. */
    readonly leaseMs: number;
    /** Transfers claimed and debited per transaction. */
    readonly chunkSize: number;
    /** Payout calls in flight at once per chunk. */
    readonly concurrency: number;
  };
  /** Events older than this many days are deleted once dispatched (GET /v1/events shows what is left). */
  readonly eventRetentionDays: number;
  /** node-cron expression, Buenos Aires time: when events past their retention are deleted. */
  readonly eventPurgeCron: string;
  /** node-cron expression, Buenos Aires time: when list_counts' slots are folded (foldListCounts). */
  readonly countFoldCron: string;
  /** node-cron expression: when alias changes their requests abandoned are reconciled with the banking provider. */
  readonly aliasReconcileCron: string;
  /** Background workers (provisioning, and later settlement, transfers, webhooks); off for tests that drive them. */
  readonly workersEnabled: boolean;
  readonly rateLimits: RateLimits;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For names the source address the limits count. */
  readonly trustProxy: boolean | number | string;
  readonly logLevel: string;
  readonly shutdownTimeoutMs: number;
  /** After SIGTERM, how long the service keeps serving while /health answers 503 draining, so a load balancer stops sending first. */
  readonly shutdownDrainMs: number;
  readonly sandboxCredentials: readonly SandboxCredential[];
  /** Absent in sandbox: generated once and kept in the database, like jwtSecret. Seals webhook secrets at rest. */
  readonly webhookSecretKey?: string;
  readonly webhooks: {
    /** One attempt, from the call to the answer's last byte. */
    readonly timeoutMs: number;
    readonly maxConnectionsPerEndpoint: number;
    readonly maxConnections: number;
    readonly maxConnectionsPerCustomer: number;
    /** The PEM of WEBHOOK_CA_FILE: extra certificate authorities trusted for deliveries. */
    readonly extraCa?: string;
    /** Multiplies the retry schedule (CONTRACT); tests shrink it. */
    readonly retryScale: number;
    /** Consecutive failed attempts that make an ACTIVE webhook FAILED. */
    readonly failureThreshold: number;
    /** How long a PAUSED or FAILED webhook keeps its attempts for an activation. */
    readonly retentionHours: number;
    /** How often the dispatcher looks for new events, and the delivery worker for due attempts. */
    readonly dispatchPollMs: number;
    readonly deliveryPollMs: number;
    /** node-cron expression: when attempts held past the retention are expired. */
    readonly expiryCron: string;
  };
}

/** A setting that stops start-up, reported as one line. */
export class ConfigError extends Error {}

/** TRUST_PROXY as Express reads it: true/false, a hop count, or addresses, subnets and names (loopback, ...). */
function trustProxy(raw: string | undefined): boolean | number | string {
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

function pemOf(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`WEBHOOK_CA_FILE cannot be read: ${(error as Error).message}`);
  }
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a number > 0, got "${raw}"`);
  return value;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/**
 * Payouts start in the first half of a transfer's lease only, so that each has ended before another worker may
 * ask the provider about it and, hearing of none, give the money back: a lease shorter than two of the provider
 * client's longest calls would let a payout land after its money was returned.
 */
function assertLeaseOutlastsSends(config: Config): void {
  if (!config.bankProviderUrl) return;
  const longest = longestCallMs({ timeoutMs: config.bankProviderTimeoutMs });
  if (config.transfers.leaseMs < 2 * longest) {
    throw new ConfigError(
      `TRANSFER_LEASE_MS must be at least ${2 * longest}: twice the longest provider call (BANK_PROVIDER_TIMEOUT_MS x 3 attempts and their backoff), got ${config.transfers.leaseMs}`,
    );
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mode = (env.APP_MODE ?? 'sandbox') as AppMode;
  if (mode !== 'sandbox' && mode !== 'production') throw new ConfigError(`APP_MODE must be sandbox or production, got "${env.APP_MODE}"`);
  if (mode === 'production') {
    const missing = ['DATABASE_URL', 'JWT_SECRET', 'BANK_PROVIDER_URL', 'WEBHOOK_SECRET_KEY'].filter((name) => !env[name]);
    if (missing.length) throw new ConfigError(`production mode needs ${missing.join(', ')}`);
  }
  // The provider's secret is the provider's to choose: 16 characters at least, so that it cannot be guessed online.
  for (const [name, least] of [
    ['JWT_SECRET', 32],
    ['WEBHOOK_SECRET_KEY', 32],
    ['BANK_NOTIFICATION_SECRET', 16],
  ] as const) {
    if (env[name] && env[name].length < least) throw new ConfigError(`${name} must be at least ${least} characters`);
  }
  if (integer(env, 'HTTP_WORKERS', 1) > 1 && !env.DATABASE_URL) {
    throw new ConfigError('HTTP_WORKERS above 1 needs DATABASE_URL: embedded PostgreSQL belongs to one process');
  }
  const webhookConnections = integer(env, 'WEBHOOK_MAX_CONNECTIONS', 256);
  const config: Config = {
    mode,
    port: integer(env, 'PORT', 3000, 0),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10),
    httpWorkers: integer(env, 'HTTP_WORKERS', 1),
    jwtSecret: env.JWT_SECRET || undefined,
    bankProviderUrl: env.BANK_PROVIDER_URL || undefined,
    bankProviderApiKey: env.BANK_PROVIDER_API_KEY || undefined,
    bankNotificationSecret: env.BANK_NOTIFICATION_SECRET || undefined,
    bankProviderTimeoutMs: integer(env, 'BANK_PROVIDER_TIMEOUT_MS', 5_000),
    sandboxProvisioningDelayMs: integer(env, 'SANDBOX_PROVISIONING_DELAY_MS', 500, 0),
    provisioning: {
      maxAttempts: integer(env, 'PROVISIONING_MAX_ATTEMPTS', 8),
      retryBaseMs: integer(env, 'PROVISIONING_RETRY_BASE_MS', 1_000),
      retryMaxMs: integer(env, 'PROVISIONING_RETRY_MAX_MS', 300_000),
      pollMs: integer(env, 'PROVISIONING_POLL_MS', 500),
      batchSize: integer(env, 'PROVISIONING_BATCH_SIZE', 50),
    },
    expirationCron: env.EXPIRATION_CRON || '5 0 * * *',
    settlementCron: env.SETTLEMENT_CRON || '*/10 * * * *',
    idempotencyPurgeCron: env.IDEMPOTENCY_PURGE_CRON || '17 * * * *',
    transferCron: env.TRANSFER_CRON || '* * * * *',
    transfers: {
      leaseMs: integer(env, 'TRANSFER_LEASE_MS', 120_000),
      chunkSize: integer(env, 'TRANSFER_BATCH_SIZE', 500),
      concurrency: integer(env, 'TRANSFER_PAYOUT_CONCURRENCY', 32),
    },
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30),
    eventPurgeCron: env.EVENT_PURGE_CRON || '40 3 * * *',
    countFoldCron: env.COUNT_FOLD_CRON || '50 4 * * *',
    aliasReconcileCron: env.ALIAS_RECONCILE_CRON || '* * * * *',
    workersEnabled: env.WORKERS_ENABLED !== 'false',
    rateLimits: {
      perCredential: integer(env, 'RATE_LIMIT_PER_MINUTE', 1200),
      perSource: integer(env, 'SOURCE_RATE_LIMIT_PER_MINUTE', 120),
      loginPerSource: integer(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 20),
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 0, 0),
    webhookSecretKey: env.WEBHOOK_SECRET_KEY || undefined,
    webhooks: {
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000),
      maxConnectionsPerEndpoint: integer(env, 'WEBHOOK_MAX_CONNECTIONS_PER_ENDPOINT', 8),
      maxConnections: webhookConnections,
      // A quarter of all: a customer whose endpoints hang leaves three quarters to the others.
      maxConnectionsPerCustomer: integer(env, 'WEBHOOK_MAX_CONNECTIONS_PER_CUSTOMER', Math.ceil(webhookConnections / 4)),
      extraCa: env.WEBHOOK_CA_FILE ? pemOf(env.WEBHOOK_CA_FILE) : undefined,
      retryScale: positiveNumber(env, 'WEBHOOK_RETRY_SCALE', 1),
      failureThreshold: integer(env, 'WEBHOOK_FAILURE_THRESHOLD', 20),
      retentionHours: positiveNumber(env, 'WEBHOOK_RETENTION_HOURS', 72),
      dispatchPollMs: integer(env, 'WEBHOOK_DISPATCH_POLL_MS', 1_000),
      deliveryPollMs: integer(env, 'WEBHOOK_DELIVERY_POLL_MS', 500),
      expiryCron: env.WEBHOOK_EXPIRY_CRON || '*/5 * * * *',
    },
    sandboxCredentials:
      mode === 'sandbox'
        ? [
            {
              customerName: SANDBOX_CUSTOMER_NAMES[0],
              clientId: env.SANDBOX_CLIENT_ID || 'sandbox-client',
              clientSecret: env.SANDBOX_CLIENT_SECRET || 'sandbox-secret',
            },
            {
              customerName: SANDBOX_CUSTOMER_NAMES[1],
              clientId: env.SANDBOX2_CLIENT_ID || 'sandbox-client-2',
              clientSecret: env.SANDBOX2_CLIENT_SECRET || 'sandbox-secret-2',
            },
          ]
        : [],
  };
  assertLeaseOutlastsSends(config);
  return config;
}
