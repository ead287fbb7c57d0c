import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { parseSubscription, parseWebhookUrl, tailOf, Webhook } from '../webhook';
import type { WebhookSecretVault, WebhookUrlPolicy } from '../webhook-ports';

/** A webhook with its secret in clear: only creation and rotation answer with it (SPEC). */
export interface WebhookWithSecret {
  readonly webhook: Webhook;
  readonly secret: string;
}

export class RegisterWebhook {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'webhooks'>>,
    private readonly clock: Clock,
    private readonly vault: WebhookSecretVault,
    private readonly urls: WebhookUrlPolicy,
  ) {}

  async execute(input: { readonly customerId: number; readonly url: string; readonly events: readonly string[] }): Promise<WebhookWithSecret> {
    const subscription = parseSubscription(input);
    await this.urls.check(subscription.url);
    const secret = this.vault.generate();
    const draft = Webhook.register(input.customerId, subscription, { sealed: this.vault.seal(secret), tail: tailOf(secret) }, this.clock.now());
    return { webhook: await this.uow.run((tx) => tx.webhooks.insert(draft)), secret };
  }
}

/**
 * The url check alone, for a caller to run before it opens a transaction (an Idempotency-Key's) that registration
 * or replacement will run in: in production it waits on DNS, which no transaction should. They check again.
 */
export class CheckWebhookUrl {
  constructor(private readonly urls: WebhookUrlPolicy) {}

  execute(url: string): Promise<void> {
    return this.urls.check(parseWebhookUrl(url));
  }
}
