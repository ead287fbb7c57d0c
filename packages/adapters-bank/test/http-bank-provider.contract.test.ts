import { composeCvu } from '@rcs/domain';
import { bankProviderContract, type AliasBehaviour, type PayoutBehaviour, type ProviderBehaviour } from '@rcs/domain/testing';
import { HttpBankProvider } from '../src/http-bank-provider';
import { MAGIC, startBankSimulator } from '../src/bank-simulator';
import { MAGIC_DESTINATIONS } from '../src/simulated-payouts';

/** The HTTP client talking to the simulator passes the contract the scripted fake passes. */
describe('HTTP bank provider client and simulator', () => {
  bankProviderContract(async () => {
    let clock = 0;
    const simulator = await startBankSimulator(0, { provisioningDelayMs: 1_000, hangMs: 2_000, now: () => clock });
    const provider = new HttpBankProvider({ baseUrl: simulator.url, timeoutMs: 600, attempts: 2, backoffMs: 1 });
    const words: Record<ProviderBehaviour, string> = { assigns: '', rejects: MAGIC.REJECT, 'is-down': MAGIC.DOWN, 'times-out': MAGIC.TIMEOUT };
    let free = 0;
    const aliases: Record<Exclude<AliasBehaviour, 'free'>, string> = {
      resolves: 'Kiosco.Sur',
      unknown: 'sim-unknown.1',
      'is-down': 'sim-down.1',
      'times-out': 'sim-timeout.1',
    };
    const destinations: Record<PayoutBehaviour, string | undefined> = {
      completes: undefined,
      rejects: MAGIC_DESTINATIONS.REJECTED,
      'is-down': MAGIC_DESTINATIONS.DOWN,
      'times-out': MAGIC_DESTINATIONS.TIMEOUT,
      'answers-late': MAGIC_DESTINATIONS.LATE,
    };
    let requests = 0;
    let payouts = 0;
    return {
      provider,
      request: (behaviour) => ({ requestId: `ra-${++requests}`, holderName: `Kiosco ${words[behaviour]} SA`, holderTaxId: '30712345671', currencyCode: 'ARS' }),
      alias: (behaviour) => (behaviour === 'free' ? `Libre.${++free}` : aliases[behaviour]),
      payout: (behaviour) => ({
        payoutId: `tr-${++payouts}`,
        amountMinor: 150_050n,
        currencyCode: 'ARS',
        destination: { cbuCvu: destinations[behaviour] ?? composeCvu('0070999', BigInt(payouts)) },
      }),
      elapse: () => {
        clock += 1_000;
      },
      close: () => simulator.stop(),
    };
  });
});
