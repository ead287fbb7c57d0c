import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { composeCvu, isValidCbuCvu, ProviderError } from '@rcs/domain';
import { HttpBankProvider } from '../src/http-bank-provider';
import { startBankSimulator } from '../src/bank-simulator';

describe('HTTP bank provider client against the simulator', () => {
  let clock = 0;
  let simulator: Awaited<ReturnType<typeof startBankSimulator>>;
  const client = (overrides: object = {}) =>
    new HttpBankProvider({ baseUrl: simulator.url, timeoutMs: 600, attempts: 3, backoffMs: 5, random: () => 0.5, ...overrides });
  const request = (requestId: string, holderName = 'Kiosco SA') => ({ requestId, holderName, holderTaxId: '30712345671', currencyCode: 'ARS' });

  beforeAll(async () => {
    simulator = await startBankSimulator(0, { provisioningDelayMs: 1000, hangMs: 2000, flakyFailures: 2, now: () => clock });
  });
  afterAll(() => simulator.stop());

  it('answers PENDING until the provisioning delay passes, then the same valid CVU every time', async () => {
    clock = 0;
    expect(await client().requestCvu(request('ra-1'))).toEqual({ state: 'PENDING' });
    clock = 1500;
    const assigned = await client().requestCvu(request('ra-1'));
    expect(assigned.state).toBe('ASSIGNED');
    const cvu = (assigned as { cvu: string }).cvu;
    expect(isValidCbuCvu(cvu)).toBe(true);
    expect(await client().requestCvu(request('ra-1'))).toEqual({ state: 'ASSIGNED', cvu });
    clock = 5000;
    expect(await client().requestCvu(request('ra-2'))).toEqual({ state: 'PENDING' });
  });

  it('rides out a flaky provider by retrying within the call', async () => {
    // It answers the first two calls 503, then assigns at once: only a third attempt sees the CVU.
    const flaky = await startBankSimulator(0, { provisioningDelayMs: 0, flakyFailures: 2 });
    try {
      const answer = await new HttpBankProvider({ baseUrl: flaky.url, attempts: 3, backoffMs: 5, random: () => 0.5 }).requestCvu(
        request('ra-flaky', 'SIM-FLAKY SA'),
      );
      expect(answer).toEqual({ state: 'ASSIGNED', cvu: expect.any(String) });
    } finally {
      await flaky.stop();
    }
  });

  it('reports a provider that stays down as 502 external-provider-unavailable with the provider error', async () => {
    const error = await client()
      .requestCvu(request('ra-down', 'SIM-DOWN SA'))
      .catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'external-provider-unavailable', providerError: { code: 'HTTP_503' } });
  });

  it('reports a provider that does not answer in time as 504 external-provider-timeout', async () => {
    const error = await client({ attempts: 2 })
      .requestCvu(request('ra-slow', 'SIM-TIMEOUT SA'))
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'external-provider-timeout', providerError: { code: 'TIMEOUT' } });
  });

  it("takes a registration as done only when the provider's answer names our CVU", async () => {
    // A provider answering 200 with another account's CBU/CVU (or none) has not given the alias to ours.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ alias: 'kiosco.norte', cbuCvu: composeCvu('0070999', 5n) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const provider = new HttpBankProvider({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, attempts: 1 });
      const error = await provider.registerAlias({ alias: 'kiosco.norte', cbuCvu: composeCvu('0000044', 7n) }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'external-provider-unavailable', providerError: { code: 'BAD_RESPONSE' } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('passes a permanent refusal through as REJECTED', async () => {
    expect(await client().requestCvu(request('ra-reject', 'SIM-REJECT SA'))).toMatchObject({ state: 'REJECTED' });
  });

  it('reports an unreachable provider as 502 with the connection error', async () => {
    const closed = await startBankSimulator(0);
    await closed.stop();
    const unreachable = new HttpBankProvider({ baseUrl: closed.url, attempts: 2, backoffMs: 1 });
    const error = await unreachable.requestCvu(request('ra-x')).catch((e) => e);
    expect(error).toMatchObject({ code: 'external-provider-unavailable', providerError: { code: 'ECONNREFUSED' } });
  });
});
