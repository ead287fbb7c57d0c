import {
  bankProviderContract,
  PlainSecretHasher,
  ReadableTokenIssuer,
  ScriptedBankProvider,
  secretHasherContract,
  tokenIssuerContract,
  type AliasBehaviour,
  type PayoutBehaviour,
  type ProviderBehaviour,
} from '../testing';
import { composeCvu } from '../src';

/** The fakes the use-case tests stand on pass the contracts their real adapters pass. */
describe('scripted bank provider', () => {
  bankProviderContract(() => {
    const provider = new ScriptedBankProvider();
    const scripts: Record<ProviderBehaviour, Parameters<ScriptedBankProvider['script']>[1][]> = {
      assigns: [],
      rejects: [{ state: 'REJECTED', reason: 'holder rejected by compliance' }],
      'is-down': ['down'],
      'times-out': ['timeout'],
    };
    let requests = 0;
    let payouts = 0;
    const resolution = (alias: string) => ({
      alias,
      cbuCvu: composeCvu('0000003', 77n),
      holderName: 'Ana Gomez',
      holderTaxId: '27123456780',
      entity: 'Mercado Pago',
    });
    provider.scriptAlias('ana.gomez.mp', resolution('ana.gomez.mp'));
    provider.scriptAlias('nadie.down', 'down');
    provider.scriptAlias('nadie.slow', 'timeout');
    let free = 0;
    const aliases: Record<Exclude<AliasBehaviour, 'free'>, string> = {
      resolves: 'ana.gomez.mp',
      unknown: 'nadie.sabe',
      'is-down': 'nadie.down',
      'times-out': 'nadie.slow',
    };
    const payoutSteps: Record<PayoutBehaviour, Parameters<ScriptedBankProvider['scriptPayout']>[1][]> = {
      completes: [],
      rejects: [{ state: 'REJECTED', reason: 'destination account closed' }],
      'is-down': ['down'],
      'times-out': ['timeout'],
      'answers-late': ['late'],
    };
    return Promise.resolve({
      provider,
      request(behaviour) {
        const requestId = `ra-${++requests}`;
        provider.script(requestId, ...scripts[behaviour]);
        return { requestId, holderName: 'Kiosco SA', holderTaxId: '30712345671', currencyCode: 'ARS' };
      },
      alias: (behaviour) => (behaviour === 'free' ? `libre.${++free}` : aliases[behaviour]),
      payout(behaviour) {
        const cbuCvu = composeCvu('0110599', BigInt(++payouts));
        provider.scriptPayout(cbuCvu, ...payoutSteps[behaviour]);
        return { payoutId: `tr-${payouts}`, amountMinor: 150_050n, currencyCode: 'ARS', destination: { cbuCvu } };
      },
      elapse: () => undefined,
      close: () => Promise.resolve(),
    });
  });
});

describe('plain secret hasher', () => {
  secretHasherContract(() => new PlainSecretHasher());
});

describe('readable token issuer', () => {
  tokenIssuerContract(() => ({ issuer: new ReadableTokenIssuer(), read: (token) => JSON.parse(token) }));
});
