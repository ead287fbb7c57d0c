import { createApplication, DEFAULT_PROVISIONING_POLICY, type ApplicationPorts } from '../src';
import { InMemoryReceivableAccountQueries } from './in-memory/in-memory-receivable-account-repository';
import { ScriptedBankProvider } from './scripted-bank-provider';
import { InMemoryReceivableQueries } from './in-memory/in-memory-receivable-repository';
import { InMemoryRouteSettlementQueries } from './in-memory/in-memory-route-settlement-repository';
import { InMemoryCurrentAccountQueries, InMemoryLedgerQueries } from './in-memory/in-memory-ledger';
import { InMemorySettlementQueries } from './in-memory/in-memory-settlements';
import { InMemoryIdempotencyQueries } from './in-memory/in-memory-idempotency-repository';
import { emptyTables, type Tables } from './in-memory/in-memory-tables';
import { InMemoryUnitOfWork } from './in-memory/in-memory-unit-of-work';
import { InMemoryClientQueries } from './in-memory/in-memory-client-repository';
import { InMemoryAssociateQueries } from './in-memory/in-memory-associate-repository';
import { FixedClock, PlainSecretHasher, ReadableTokenIssuer, SequentialSecretGenerator } from './fakes';

/** A whole application on in-memory adapters, for embedders' tests and our own use-case specs. */
export function inMemoryPorts(): ApplicationPorts & { store: { committed: Tables }; clock: FixedClock; bank: ScriptedBankProvider } {
  const store = { committed: emptyTables() };
  const bank = new ScriptedBankProvider();
  const clock = new FixedClock();
  const uow = new InMemoryUnitOfWork(store);
  return {
    uow,
    clock,
    hasher: new PlainSecretHasher(),
    secrets: new SequentialSecretGenerator(),
    tokens: new ReadableTokenIssuer(),
    clientQueries: new InMemoryClientQueries(uow),
    associateQueries: new InMemoryAssociateQueries(uow),
    receivableAccountQueries: new InMemoryReceivableAccountQueries(uow),
    receivableQueries: new InMemoryReceivableQueries(uow),
    routeSettlementQueries: new InMemoryRouteSettlementQueries(uow),
    ledgerQueries: new InMemoryLedgerQueries(uow),
    currentAccountQueries: new InMemoryCurrentAccountQueries(uow),
    settlementQueries: new InMemorySettlementQueries(uow),
    idempotencyQueries: new InMemoryIdempotencyQueries(uow),
    bank,
    provisioningPolicy: { ...DEFAULT_PROVISIONING_POLICY, random: () => 0.5 },
    provisioningTrigger: { accountOpened: () => undefined },
    store,
  };
}

export function inMemoryApplication() {
  const ports = inMemoryPorts();
  return { app: createApplication(ports), ...ports };
}
