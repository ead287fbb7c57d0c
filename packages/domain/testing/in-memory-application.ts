import { createApplication, DEFAULT_PROVISIONING_POLICY, type ApplicationPorts } from '../src';
import { ScriptedBankProvider } from './scripted-bank-provider';
import { emptyTables, type Tables } from './in-memory/in-memory-tables';
import { inMemoryStorage } from './in-memory/in-memory-storage';
import { CodeEntityDirectory, FixedClock, PlainSecretHasher, ReadableTokenIssuer, SequentialSecretGenerator } from './fakes';
import { fakeWebhookPorts, ScriptedWebhookSender } from './webhook-fakes';

/** A whole application on in-memory adapters, for embedders' tests and our own use-case specs. */
export function inMemoryPorts(): ApplicationPorts & {
  store: { committed: Tables };
  clock: FixedClock;
  bank: ScriptedBankProvider;
  sender: ScriptedWebhookSender;
} {
  const store = { committed: emptyTables() };
  const bank = new ScriptedBankProvider();
  const clock = new FixedClock();
  const sender = new ScriptedWebhookSender();
  return {
    ...inMemoryStorage(store),
    clock,
    hasher: new PlainSecretHasher(),
    secrets: new SequentialSecretGenerator(),
    tokens: new ReadableTokenIssuer(),
    bank,
    entities: new CodeEntityDirectory(),
    provisioningPolicy: { ...DEFAULT_PROVISIONING_POLICY, random: () => 0.5 },
    provisioningTrigger: { accountOpened: () => undefined },
    ...fakeWebhookPorts(sender),
    sender,
    store,
  };
}

export function inMemoryApplication() {
  const ports = inMemoryPorts();
  return { app: createApplication(ports), ...ports };
}
