import type { HarnessFactory, TestDefinition } from './harness';
import { clientRepositoryContract } from './client-repository.contract';
import { associateRepositoryContract } from './associate-repository.contract';
import { customerRepositoryContract } from './customer-repository.contract';
import { idempotencyRepositoryContract } from './idempotency-repository.contract';
import { unitOfWorkContract } from './unit-of-work.contract';
import { receivableAccountRepositoryContract } from './receivable-account-repository.contract';
import { receivableRepositoryContract } from './receivable-repository.contract';
import { receivableBatchPortsContract } from './receivable-batch-ports.contract';
import { ledgerContract } from './ledger.contract';
import { transferRepositoryContract } from './transfer-repository.contract';
import { transferQueueContract } from './transfer-queue.contract';
import { contactRepositoryContract } from './contact-repository.contract';
import { eventFeedContract } from './event-feed.contract';
import { webhookRepositoryContract } from './webhook-repository.contract';
import { pagingContract } from './paging.contract';
import { webhookDeliveryRepositoryContract } from './webhook-delivery-repository.contract';
import { webhookDeliveryClaimContract } from './webhook-delivery-claim.contract';

export type { RepositoryHarness, HarnessFactory, TestDefinition } from './harness';

/** The one suite every storage adapter passes: in-memory, PGlite and PostgreSQL. */
export function repositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  unitOfWorkContract(factory, itRacing);
  customerRepositoryContract(factory, itRacing);
  clientRepositoryContract(factory, itRacing);
  associateRepositoryContract(factory);
  idempotencyRepositoryContract(factory);
  receivableAccountRepositoryContract(factory, itRacing);
  receivableRepositoryContract(factory, itRacing);
  receivableBatchPortsContract(factory);
  ledgerContract(factory);
  transferRepositoryContract(factory, itRacing);
  transferQueueContract(factory, itRacing);
  contactRepositoryContract(factory, itRacing);
  eventFeedContract(factory, itRacing);
  webhookRepositoryContract(factory);
  pagingContract(factory);
  webhookDeliveryClaimContract(factory, itRacing);
  webhookDeliveryRepositoryContract(factory);
}
