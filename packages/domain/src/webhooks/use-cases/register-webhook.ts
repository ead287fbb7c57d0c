import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { parseSubscription, tailOf, Webhook } from '../webhook';
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
