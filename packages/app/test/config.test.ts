import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('starts in sandbox with the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      mode: 'sandbox',
      port: 3000,
      rateLimits: { perCredential: 1200, perSource: 120, loginPerSource: 20 },
      trustProxy: false,
      databaseUrl: undefined,
      workersEnabled: true,
      httpWorkers: 1,
      eventRetentionDays: 30,
      eventPurgeCron: '40 3 * * *',
      countFoldCron: '50 4 * * *',
      aliasReconcileCron: '* * * * *',
      transferCron: '* * * * *',
      transfers: { leaseMs: 120_000, chunkSize: 500, concurrency: 32 },
      webhooks: {
        retryScale: 1,
        failureThreshold: 20,
        retentionHours: 72,
        dispatchPollMs: 1000,
        deliveryPollMs: 500,
        expiryCron: '*/5 * * * *',
      },
    });
    expect(config.sandboxCredentials.map((c) => [c.customerName, c.clientId])).toEqual([
      ['Sandbox Customer 1', 'sandbox-client'],
      ['Sandbox Customer 2', 'sandbox-client-2'],
    ]);
  });

  it('refuses production without its required settings, naming them in one line', () => {
    expect(() => loadConfig({ APP_MODE: 'production' })).toThrow(
      new ConfigError('production mode needs DATABASE_URL, JWT_SECRET, BANK_PROVIDER_URL, WEBHOOK_SECRET_KEY'),
    );
    const ok = loadConfig({
      APP_MODE: 'production',
      DATABASE_URL: 'postgres://db',
      JWT_SECRET: 'j'.repeat(32),
      BANK_PROVIDER_URL: 'https://bank',
      WEBHOOK_SECRET_KEY: 'w'.repeat(32),
    });
    expect(ok.sandboxCredentials).toEqual([]);
    expect(ok.bankNotificationSecret).toBeUndefined();
  });

  it('refuses a short WEBHOOK_SECRET_KEY and an unreadable WEBHOOK_CA_FILE', () => {
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'short' })).toThrow(new ConfigError('WEBHOOK_SECRET_KEY must be at least 32 characters'));
    expect(() => loadConfig({ WEBHOOK_CA_FILE: '/nonexistent/ca.pem' })).toThrow(/WEBHOOK_CA_FILE cannot be read/);
  });

  it('takes BANK_NOTIFICATION_SECRET of 16 characters or more, an empty one as none (the sandbox then keeps its own)', () => {
    expect(loadConfig({ BANK_NOTIFICATION_SECRET: 'p'.repeat(16) }).bankNotificationSecret).toBe('p'.repeat(16));
    expect(loadConfig({ BANK_NOTIFICATION_SECRET: '' }).bankNotificationSecret).toBeUndefined();
    expect(() => loadConfig({ BANK_NOTIFICATION_SECRET: 'p'.repeat(15) })).toThrow(new ConfigError('BANK_NOTIFICATION_SECRET must be at least 16 characters'));
  });

  it('takes a fractional WEBHOOK_RETRY_SCALE and refuses one that is not a positive number', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCALE: '0.001' }).webhooks.retryScale).toBe(0.001);
    for (const raw of ['0', '-1', 'fast']) {
      expect(() => loadConfig({ WEBHOOK_RETRY_SCALE: raw })).toThrow(new ConfigError(`WEBHOOK_RETRY_SCALE must be a number > 0, got "${raw}"`));
    }
  });

  it('refuses a transfer lease a payout could outlast against a real provider: sends start in its first half only', () => {
    const provider = { BANK_PROVIDER_URL: 'https://bank.example', BANK_PROVIDER_TIMEOUT_MS: '20000' };
    // Three attempts of 20 s and backoffs of up to 300 and 600 ms: 60.9 s a call at worst, 121.8 s for two.
    expect(() => loadConfig(provider)).toThrow(
      new ConfigError(
        'TRANSFER_LEASE_MS must be at least 121800: twice the longest provider call (BANK_PROVIDER_TIMEOUT_MS x 3 attempts and their backoff), got 120000',
      ),
    );
    expect(loadConfig({ ...provider, TRANSFER_LEASE_MS: '121800' }).transfers.leaseMs).toBe(121_800);
    expect(loadConfig({ BANK_PROVIDER_URL: 'https://bank.example' }).transfers.leaseMs).toBe(120_000);
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
    ['false', false],
  ])('reads TRUST_PROXY=%p as Express does: %p', (raw, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy);
  });

  it.each([
    [{ APP_MODE: 'staging' }, /APP_MODE/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, /RATE_LIMIT_PER_MINUTE/],
    [{ SOURCE_RATE_LIMIT_PER_MINUTE: 'many' }, /SOURCE_RATE_LIMIT_PER_MINUTE/],
    [{ LOGIN_RATE_LIMIT_PER_MINUTE: '0' }, /LOGIN_RATE_LIMIT_PER_MINUTE/],
    [{ HTTP_WORKERS: '2' }, /HTTP_WORKERS above 1 needs DATABASE_URL/],
  ])('refuses %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
