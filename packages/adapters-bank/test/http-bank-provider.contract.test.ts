import { bankProviderContract, type ProviderBehaviour } from '@rcs/domain/testing';
import { HttpBankProvider } from '../src/http-bank-provider';
import { MAGIC, startBankSimulator } from '../src/bank-simulator';

/** The HTTP client talking to the simulator passes the contract the scripted fake passes. */
describe('HTTP bank provider client and simulator', () => {
  bankProviderContract(async () => {
    let clock = 0;
    const simulator = await startBankSimulator(0, { provisioningDelayMs: 1_000, hangMs: 2_000, now: () => clock });
    const provider = new HttpBankProvider({ baseUrl: simulator.url, timeoutMs: 200, attempts: 2, backoffMs: 1 });
    const words: Record<ProviderBehaviour, string> = { assigns: '', rejects: MAGIC.REJECT, 'is-down': MAGIC.DOWN, 'times-out': MAGIC.TIMEOUT };
    let requests = 0;
    return {
      provider,
      request: (behaviour) => ({ requestId: `ra-${++requests}`, holderName: `Kiosco ${words[behaviour]} SA`, holderTaxId: '30712345671', currencyCode: 'ARS' }),
      elapse: () => {
        clock += 1_000;
      },
      close: () => simulator.stop(),
    };
  });
});
