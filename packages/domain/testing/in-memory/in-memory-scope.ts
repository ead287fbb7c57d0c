import type { TransactionScope } from '../../src';
import type { TablesRef } from './in-memory-tables';
import { InMemoryCustomerRepository, InMemoryCredentialRepository } from './in-memory-customer-repositories';
import { InMemoryCurrentAccountRepository } from './in-memory-current-account-repository';
import { InMemoryClientRepository } from './in-memory-client-repository';
import { InMemoryAssociateRepository } from './in-memory-associate-repository';
import { InMemoryReceivableAccountRepository } from './in-memory-receivable-account-repository';
import { InMemoryReceivableRepository } from './in-memory-receivable-repository';
import { InMemoryRouteSettlementRepository } from './in-memory-route-settlement-repository';
import { InMemoryLedgerRepository } from './in-memory-ledger';
import { InMemorySettlementRepository } from './in-memory-settlements';
import { InMemoryIdempotencyRepository } from './in-memory-idempotency-repository';
import { InMemoryOutbox } from './in-memory-outbox';

export function inMemoryScope(ref: TablesRef): TransactionScope {
  return {
    customers: new InMemoryCustomerRepository(ref),
    credentials: new InMemoryCredentialRepository(ref),
    currentAccounts: new InMemoryCurrentAccountRepository(ref),
    clients: new InMemoryClientRepository(ref),
    associates: new InMemoryAssociateRepository(ref),
    receivableAccounts: new InMemoryReceivableAccountRepository(ref),
    receivables: new InMemoryReceivableRepository(ref),
    routeSettlements: new InMemoryRouteSettlementRepository(ref),
    ledger: new InMemoryLedgerRepository(ref),
    settlements: new InMemorySettlementRepository(ref),
    idempotency: new InMemoryIdempotencyRepository(ref),
    outbox: new InMemoryOutbox(ref),
  };
}
