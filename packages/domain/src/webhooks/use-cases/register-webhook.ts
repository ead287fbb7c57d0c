import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { parseEventTypes, parseSubscription, parseWebhookUrl, tailOf, Webhook } from '../webhook';
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
    // The url's form, the event types, then its address: checkSubscription's order, without parsing twice.
    const subscription = parseSubscription(input);
    await this.urls.check(subscription.url);
    const secret = this.vault.generate();
    const draft = Webhook.register(input.customerId, subscription, { sealed: this.vault.seal(secret), tail: tailOf(secret) }, this.clock.now());
    return { webhook: await this.uow.run((tx) => tx.webhooks.insert(draft)), secret };
  }
}

/**
 * A subscription's url and events as registration and replacement check them, in one order: the url's form, the
 * event types, then where the url leads (in production a DNS lookup, the one slow check, last).
 */
export async function checkSubscription(urls: WebhookUrlPolicy, input: { readonly url?: string; readonly events?: readonly string[] }): Promise<void> {
  const url = input.url === undefined ? undefined : parseWebhookUrl(input.url);
  if (input.events !== undefined) parseEventTypes(input.events);
  if (url !== undefined) await urls.check(url);
}

/**
 * The subscription's checks alone, for a caller to run before it opens a transaction (an Idempotency-Key's) that
 * registration or replacement will run in: in production the url's waits on DNS, which no transaction should.
 * They check again (a policy may remember what passed).
 */
export class CheckWebhookSubscription {
  constructor(private readonly urls: WebhookUrlPolicy) {}

  execute(input: { readonly url?: string; readonly events?: readonly string[] }): Promise<void> {
    return checkSubscription(this.urls, input);
  }
}
