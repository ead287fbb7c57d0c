import type { Clock } from './shared/clock';
import type { StoragePorts } from './storage';
import type { SecretGenerator, SecretHasher, TokenIssuer } from './customers/security-ports';
import { CreateCustomer } from './customers/use-cases/create-customer';
import { EnsureSandboxCustomer } from './customers/use-cases/ensure-sandbox-customer';
import { CreateCredential, RevokeCredential } from './customers/use-cases/credentials';
import { ListCredentials, ListCustomers } from './customers/use-cases/read-customers';
import { Login } from './customers/use-cases/login';
import { DescribeIdentity } from './customers/use-cases/describe-identity';
import { RegisterClient } from './clients/use-cases/register-client';
import { ReplaceClient } from './clients/use-cases/replace-client';
import { GetClient, ListClients } from './clients/use-cases/read-clients';
import { RegisterAssociate } from './associates/use-cases/register-associate';
import { ActivateAssociate, DisableAssociate, ReplaceAssociate } from './associates/use-cases/change-associate';
import { GetAssociate, ListAssociates, ListAssociatesOfClient } from './associates/use-cases/read-associates';
import type { BankProvider } from './bank/bank-provider';
import type { ProvisioningPolicy } from './receivable-accounts/provisioning-policy';
import { OpenReceivableAccount, type ProvisioningTrigger } from './receivable-accounts/use-cases/open-receivable-account';
import { OpenReceivableAccountsBatch } from './receivable-accounts/use-cases/open-receivable-accounts-batch';
import { ActivateReceivableAccount, DisableReceivableAccount, UpdateReceivableAccount } from './receivable-accounts/use-cases/change-receivable-account';
import { GetReceivableAccount, ListReceivableAccounts, ListReceivableAccountsOfOwner } from './receivable-accounts/use-cases/read-receivable-accounts';
import { ProvisionReceivableAccounts } from './receivable-accounts/use-cases/provision-receivable-accounts';
import { AliasRegistrar } from './receivable-accounts/use-cases/alias-registrar';
import { ReconcileAliasClaims } from './receivable-accounts/use-cases/reconcile-alias-claims';
import { IssueReceivable } from './receivables/use-cases/issue-receivable';
import { IssueReceivablesBatch } from './receivables/use-cases/issue-receivables-batch';
import { ChangeReceivableStatus } from './receivables/use-cases/change-receivable-status';
import { EditReceivable } from './receivables/use-cases/edit-receivable';
import { ExpireReceivables } from './receivables/use-cases/expire-receivables';
import { PurgeExpiredIdempotencyKeys } from './idempotency/purge-expired-keys';
import { IdempotentExecution } from './idempotency/idempotent-execution';
import { GetReceivable, ListReceivables } from './receivables/use-cases/read-receivables';
import { RecordCollection } from './ledger/use-cases/record-collection';
import { VerifyLedger } from './ledger/use-cases/verify-ledger';
import { GetBalances, GetCurrentAccount, ListCurrentAccounts, ListMovements } from './current-accounts/read-current-accounts';
import { CreateTransfer } from './transfers/use-cases/create-transfer';
import { ApproveTransfer, CancelTransfer, RejectTransfer } from './transfers/use-cases/change-transfer';
import { GetTransfer, ListTransfers } from './transfers/use-cases/read-transfers';
import { ProcessTransfers } from './transfers/use-cases/process-transfers';
import { DEFAULT_PAYOUT_POLICY, type PayoutPolicy } from './transfers/payout-policy';
import { RunSettlementCycle } from './settlements/use-cases/run-settlement-cycle';
import { GetSettlement, ListSettlements } from './settlements/use-cases/read-settlements';
import type { EntityDirectory } from './bank/entity-directory';
import { AliasDirectory } from './bank/alias-directory';
import { ResolveContactDestination } from './contacts/use-cases/resolve-contact-destination';
import { CreateContact, DeleteContact, ReplaceContact } from './contacts/use-cases/save-contact';
import { GetContact, ListContacts } from './contacts/use-cases/read-contacts';
import { DispatchEvents } from './events/use-cases/dispatch-events';
import { PurgeEvents } from './events/use-cases/purge-events';
import { FollowEvents, GetEvent, ListEvents } from './events/use-cases/read-events';
import {
  GetRouteSettlement,
  ListRouteSettlementReceivables,
  ListRouteSettlements,
  RegisterRouteSettlement,
} from './route-settlements/use-cases/route-settlement-use-cases';
import type { WebhookDeliveryPorts, WebhookUrlPolicy } from './webhooks/webhook-ports';
import { CheckWebhookSubscription, RegisterWebhook } from './webhooks/use-cases/register-webhook';
import { webhookSecretAtRest } from './webhooks/secret-at-rest';
import { ActivateWebhook, DeleteWebhook, PauseWebhook, ReplaceWebhook, RotateWebhookSecret } from './webhooks/use-cases/change-webhook';
import { GetWebhook, ListWebhookDeliveries, ListWebhooks } from './webhooks/use-cases/read-webhooks';
import { RedeliverEvent, SendTestDelivery } from './webhooks/use-cases/send-test-delivery';
import { DispatchWebhookEvents } from './webhooks/use-cases/dispatch-webhook-events';
import { DeliverWebhooks, ExpireHeldDeliveries } from './webhooks/use-cases/deliver-webhooks';

/** Every adapter the use cases need. */
export interface ApplicationPorts extends StoragePorts {
  readonly clock: Clock;
  readonly hasher: SecretHasher;
  readonly secrets: SecretGenerator;
  readonly tokens: TokenIssuer;
  readonly bank: BankProvider;
  readonly entities: EntityDirectory;
  readonly provisioningPolicy: ProvisioningPolicy;
  readonly provisioningTrigger: ProvisioningTrigger;
  readonly webhookUrls: WebhookUrlPolicy;
  readonly webhookDelivery: WebhookDeliveryPorts;
  /** How the transfer worker pays (DEFAULT_PAYOUT_POLICY when left out). */
  readonly payoutPolicy?: PayoutPolicy;
}

/** The typed facade: HTTP, schedulers, the CLI and embedders call the same use cases through it. */
export function createApplication(ports: ApplicationPorts) {
  const { uow, clock } = ports;
  return {
    ...useCasesOn(ports),
    idempotency: {
      purge: new PurgeExpiredIdempotencyKeys(uow, clock),
      /** Hands the operation under a key the use cases bound to the key's transaction, so they commit with it. */
      execution: new IdempotentExecution<UseCases>(uow, clock, (work) => ports.begin((bound) => work(useCasesOn({ ...ports, ...bound }), bound.uow))),
    },
  };
}

/** Every use case, on `ports`: free ones for a caller of its own, bound ones for an operation under a key. */
function useCasesOn(ports: ApplicationPorts) {
  const { uow, clock, hasher, secrets, tokens, provisioningTrigger } = ports;
  const aliasRegistrar = new AliasRegistrar(ports.bank, uow, clock, ports.provisioningPolicy);
  const openAccount = new OpenReceivableAccount(uow, clock, provisioningTrigger);
  const issueReceivable = new IssueReceivable(uow, clock);
  const getCurrentAccount = new GetCurrentAccount(ports.currentAccountQueries);
  const getWebhook = new GetWebhook(ports.webhookQueries);
  const { vault, retentionMs } = ports.webhookDelivery;
  const dispatch = new DispatchEvents(uow);
  const aliases = new AliasDirectory(uow, ports.bank, ports.entities);
  return {
    customers: {
      create: new CreateCustomer(uow, clock, hasher, secrets),
      ensureSandbox: new EnsureSandboxCustomer(uow, clock, hasher),
      list: new ListCustomers(ports.customerQueries),
    },
    credentials: {
      create: new CreateCredential(uow, clock, hasher, secrets),
      revoke: new RevokeCredential(uow),
      list: new ListCredentials(ports.customerQueries),
    },
    auth: {
      login: new Login(uow, hasher, tokens),
      describeIdentity: new DescribeIdentity(uow),
    },
    clients: {
      register: new RegisterClient(uow, clock),
      replace: new ReplaceClient(uow, clock),
      get: new GetClient(ports.clientQueries),
      list: new ListClients(ports.clientQueries),
    },
    associates: {
      register: new RegisterAssociate(uow, clock),
      replace: new ReplaceAssociate(uow, clock),
      disable: new DisableAssociate(uow, clock),
      activate: new ActivateAssociate(uow, clock),
      get: new GetAssociate(ports.associateQueries),
      list: new ListAssociates(ports.associateQueries),
      listOfClient: new ListAssociatesOfClient(ports.clientQueries, ports.associateQueries),
    },
    receivableAccounts: {
      open: openAccount,
      openBatch: new OpenReceivableAccountsBatch(uow, clock, provisioningTrigger),
      update: new UpdateReceivableAccount(uow, clock, aliasRegistrar),
      disable: new DisableReceivableAccount(uow, clock),
      activate: new ActivateReceivableAccount(uow, clock, provisioningTrigger),
      get: new GetReceivableAccount(ports.receivableAccountQueries),
      list: new ListReceivableAccounts(ports.receivableAccountQueries),
      listOfOwner: new ListReceivableAccountsOfOwner(ports.clientQueries, ports.associateQueries, ports.receivableAccountQueries),
      provision: new ProvisionReceivableAccounts(uow, clock, ports.bank, ports.provisioningPolicy, aliasRegistrar),
      reconcileAliases: new ReconcileAliasClaims(uow, clock, aliasRegistrar),
    },
    receivables: {
      issue: issueReceivable,
      issueBatch: new IssueReceivablesBatch(uow, clock),
      changeStatus: new ChangeReceivableStatus(uow, clock),
      edit: new EditReceivable(uow, clock),
      expire: new ExpireReceivables(uow, clock),
      get: new GetReceivable(ports.receivableQueries),
      list: new ListReceivables(ports.receivableQueries, ports.receivableAccountQueries),
    },
    routeSettlements: {
      register: new RegisterRouteSettlement(uow, ports.routeSettlementQueries, clock),
      get: new GetRouteSettlement(ports.routeSettlementQueries),
      list: new ListRouteSettlements(ports.routeSettlementQueries, ports.associateQueries),
      receivables: new ListRouteSettlementReceivables(ports.routeSettlementQueries, ports.receivableQueries),
    },
    collections: {
      record: new RecordCollection(uow, clock),
    },
    settlements: {
      run: new RunSettlementCycle(uow, clock),
      get: new GetSettlement(ports.settlementQueries),
      list: new ListSettlements(ports.settlementQueries),
    },
    currentAccounts: {
      get: getCurrentAccount,
      list: new ListCurrentAccounts(ports.currentAccountQueries),
      balances: new GetBalances(getCurrentAccount, clock),
    },
    transfers: {
      create: new CreateTransfer(uow, clock),
      cancel: new CancelTransfer(uow, clock),
      approve: new ApproveTransfer(uow, clock),
      reject: new RejectTransfer(uow, clock),
      /** The transfer worker's pass: debit due transfers, pay them out, reconcile those a dead worker left. */
      process: new ProcessTransfers(uow, clock, ports.bank, ports.payoutPolicy ?? DEFAULT_PAYOUT_POLICY, aliases),
      get: new GetTransfer(ports.transferQueries),
      list: new ListTransfers(ports.transferQueries),
    },
    movements: {
      list: new ListMovements(ports.ledgerQueries, ports.currentAccountQueries, ports.receivableAccountQueries),
    },
    ledger: {
      verify: new VerifyLedger(ports.ledgerQueries),
    },
    contacts: {
      /** Outside any transaction: it may ask the provider (an alias). Then create or replace with what it gives. */
      resolveDestination: new ResolveContactDestination(aliases, ports.entities),
      create: new CreateContact(uow, clock),
      replace: new ReplaceContact(uow, clock),
      delete: new DeleteContact(uow),
      get: new GetContact(ports.contactQueries),
      list: new ListContacts(ports.contactQueries),
    },
    events: {
      get: new GetEvent(ports.eventQueries),
      list: new ListEvents(ports.eventQueries),
      /** The caller's events oldest first, as a feed to follow: none skipped however transactions overlap. */
      follow: new FollowEvents(ports.eventQueries),
      /** For the webhook dispatcher: its handler gets the full scope, to write deliveries in the claiming transaction. */
      dispatch,
      purge: new PurgeEvents(uow, clock),
    },
    webhooks: {
      register: new RegisterWebhook(uow, clock, vault, ports.webhookUrls),
      replace: new ReplaceWebhook(uow, clock, ports.webhookUrls),
      checkSubscription: new CheckWebhookSubscription(ports.webhookUrls),
      delete: new DeleteWebhook(uow),
      pause: new PauseWebhook(uow, clock),
      activate: new ActivateWebhook(uow, clock, retentionMs),
      rotateSecret: new RotateWebhookSecret(uow, clock, vault),
      /** How the answers of register and rotateSecret rest under an Idempotency-Key: their secret sealed. */
      secretAtRest: webhookSecretAtRest(vault),
      get: getWebhook,
      list: new ListWebhooks(ports.webhookQueries),
      sendTest: new SendTestDelivery(uow, clock, ports.webhookDelivery),
      redeliver: new RedeliverEvent(uow, clock, ports.webhookDelivery, ports.eventQueries),
      deliveries: new ListWebhookDeliveries(getWebhook, ports.webhookQueries),
      /** The dispatcher job: events to attempts. */
      dispatch: new DispatchWebhookEvents(dispatch, clock),
      /** The delivery worker: claim due attempts, then send each outside any transaction. */
      deliver: new DeliverWebhooks(uow, clock, ports.webhookDelivery),
      expireHeld: new ExpireHeldDeliveries(uow, clock, retentionMs),
    },
  };
}

/** The use cases an operation under an Idempotency-Key is handed, bound to the key's transaction. */
export type UseCases = ReturnType<typeof useCasesOn>;
export type Application = ReturnType<typeof createApplication>;
