import {
  bankProviderContract,
  PlainSecretHasher,
  ReadableTokenIssuer,
  ScriptedBankProvider,
  secretHasherContract,
  tokenIssuerContract,
  type ProviderBehaviour,
} from '../testing';

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
    return Promise.resolve({
      provider,
      request(behaviour) {
        const requestId = `ra-${++requests}`;
        provider.script(requestId, ...scripts[behaviour]);
        return { requestId, holderName: 'Kiosco SA', holderTaxId: '30712345671', currencyCode: 'ARS' };
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
