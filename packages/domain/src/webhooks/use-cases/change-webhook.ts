import type { Clock } from '../../shared/clock';
import { changeOwned, changeOwnedIn } from '../../shared/change-owned';
import { ValidationError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { parseSubscription, tailOf, type Webhook } from '../webhook';
import type { WebhookSecretVault, WebhookUrlPolicy } from '../webhook-ports';
import { checkSubscription, type WebhookWithSecret } from './register-webhook';

export interface WebhookTarget {
  readonly customerId: number;
  readonly webhookId: number;
}

type Scope = Pick<TransactionScope, 'webhooks' | 'outbox'>;

const owned = (target: WebhookTarget) => ({ customerId: target.customerId, id: target.webhookId, resource: 'webhook' });
const webhooks = (tx: Scope) => tx.webhooks;

const change = (uow: UnitOfWork<Scope>, target: WebhookTarget, apply: (webhook: Webhook) => Webhook) => changeOwned(uow, webhooks, owned(target), apply);

/** PUT: a new url, new events, or both; what is left out stays. */
export class ReplaceWebhook {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
    private readonly urls: WebhookUrlPolicy,
  ) {}

  async execute(input: WebhookTarget & { readonly url?: string; readonly events?: readonly string[] }): Promise<Webhook> {
    if (input.url === undefined && input.events === undefined) throw ValidationError.of('body', 'must carry url, events or both');
    await checkSubscription(this.urls, input);
    return change(this.uow, input, (current) => {
      const { url, events } = current.toSnapshot();
      return current.replaceSubscription(parseSubscription({ url: input.url ?? url, events: input.events ?? events }), this.clock.now());
    });
  }
}

export class PauseWebhook {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
  ) {}

  execute(input: WebhookTarget): Promise<Webhook> {
    return change(this.uow, input, (current) => current.pause(this.clock.now()));
  }
}

/**
 * Brings a PAUSED or FAILED webhook back to ACTIVE (CONTRACT) with a fresh run of failures, and makes the attempts
 * it held due now; those held longer than the retention window end FAILED as expired instead.
 */
export class ActivateWebhook {
  constructor(
    private readonly uow: UnitOfWork<Scope & Pick<TransactionScope, 'webhookDeliveries'>>,
    private readonly clock: Clock,
    private readonly retentionMs: number,
  ) {}

  execute(input: WebhookTarget): Promise<Webhook> {
    const now = this.clock.now();
    return this.uow.run(async (tx) => {
      const activated = await changeOwnedIn(tx, webhooks, owned(input), (current) => current.activate(now));
      await tx.webhooks.resetFailures(activated.id);
      await tx.webhookDeliveries.release(activated.id, now, new Date(now.getTime() - this.retentionMs));
      return activated;
    });
  }
}

export class RotateWebhookSecret {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
    private readonly vault: WebhookSecretVault,
  ) {}

  async execute(input: WebhookTarget): Promise<WebhookWithSecret> {
    const secret = this.vault.generate();
    const sealed = { sealed: this.vault.seal(secret), tail: tailOf(secret) };
    return { webhook: await change(this.uow, input, (current) => current.rotateSecret(sealed, this.clock.now())), secret };
  }
}

/**
 * Deletes the webhook: no attempt of it goes out after a worker next reads it (a worker reads a webhook at most about
 * a second before it hands one of its attempts to the sender); those out finish, unrecorded. Its delivery history
 * goes with the event purge's next run (PurgeEvents), in batches, not in this request.
 */
export class DeleteWebhook {
  constructor(private readonly uow: UnitOfWork<Pick<TransactionScope, 'webhooks'>>) {}

  execute(input: WebhookTarget): Promise<void> {
    return this.uow.run(async (tx) => {
      ownedBy(await tx.webhooks.getForUpdate(input.webhookId), input.customerId, 'webhook', input.webhookId);
      await tx.webhooks.delete(input.webhookId);
    });
  }
}
