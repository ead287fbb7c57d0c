import { HttpBankProvider } from '../src/http-bank-provider';
import { startBankSimulator } from '../src/bank-simulator';
import { MAGIC_DESTINATIONS } from '../src/simulated-payouts';
import { ArgentineEntityDirectory } from '../src/bank-entity-directory';

describe('simulated payouts and aliases beyond the contract', () => {
  let clock = 0;
  let simulator: Awaited<ReturnType<typeof startBankSimulator>>;
  let provider: HttpBankProvider;
  const payout = (payoutId: string, cbuCvu: string) => ({ payoutId, amountMinor: 1_000n, currencyCode: 'ARS', destination: { cbuCvu } });

  beforeAll(async () => {
    simulator = await startBankSimulator(0, { payoutDelayMs: 1_000, hangMs: 1_000, now: () => clock });
    provider = new HttpBankProvider({ baseUrl: simulator.url, attempts: 1 });
  });
  afterAll(() => simulator.stop());

  it('keeps a slow destination ACCEPTED until the payout delay passes, then COMPLETED', async () => {
    clock = 0;
    expect(await provider.sendPayout(payout('tr-slow', MAGIC_DESTINATIONS.SLOW_TO_COMPLETE))).toMatchObject({ state: 'ACCEPTED' });
    expect(await provider.getPayout('tr-slow')).toMatchObject({ state: 'ACCEPTED' });
    clock = 1_000;
    expect(await provider.getPayout('tr-slow')).toMatchObject({ state: 'COMPLETED' });
  });

  it('resolves the magic aliases to the magic destinations, so a transfer by alias can be made to fail', async () => {
    expect((await provider.resolveAlias('proveedor.sim-reject'))?.cbuCvu).toBe(MAGIC_DESTINATIONS.REJECTED);
    expect((await provider.resolveAlias('SIM-LATE.1'))?.cbuCvu).toBe(MAGIC_DESTINATIONS.LATE);
  });

  it('names the entity of a resolved alias from the same table the service uses', async () => {
    const resolved = await provider.resolveAlias('kiosco.centro');
    expect(resolved?.entity).toBe(new ArgentineEntityDirectory().entityOf(resolved!.cbuCvu));
  });

  it('refuses a payout whose amount is not a string of digits, so no float reaches the ledger of the provider', async () => {
    const res = await fetch(`${simulator.url}/v1/payouts/tr-float`, {
      method: 'PUT',
      body: JSON.stringify({ amountMinor: 10.5, currencyCode: 'ARS', destination: { cbuCvu: MAGIC_DESTINATIONS.LATE } }),
    });
    expect(res.status).toBe(400);
    expect(await provider.getPayout('tr-float')).toBeUndefined();
  });
});

describe('Argentine entity directory', () => {
  const directory = new ArgentineEntityDirectory();

  it('names a bank by a CBU’s first 3 digits and a wallet by a CVU’s PSP code', () => {
    expect(directory.entityOf('2850590940090418135201')).toBe('Banco Macro');
    expect(directory.entityOf('0000003100010000000001')).toBe('Mercado Pago');
  });

  it('gives a code missing from the table a stable name that says the code', () => {
    expect(directory.entityOf('9990000000000000000000')).toBe('Unknown entity (code 999)');
    expect(directory.entityOf('0004444000000000000000')).toBe('Unknown entity (PSP code 4444)');
  });
});
