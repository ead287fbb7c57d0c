import type { ApplicationPorts, DeliveryResult, EventIdGenerator, WebhookRequest, WebhookSecretVault, WebhookSender } from '../src';

/** Secrets numbered in order, "sealed" by a readable prefix: for tests that do not care about encryption. */
export class ReadableSecretVault implements WebhookSecretVault {
  private n = 0;

  generate(): string {
    return `whsec_${Buffer.from(`test-secret-${++this.n}`.padEnd(24, '.')).toString('base64')}`;
  }

  seal(secret: string): string {
    return `sealed:${secret}`;
  }

  open(sealed: string): string {
    return sealed.slice('sealed:'.length);
  }
}

/** Answers what it is told (200 by default) and keeps every request it was asked to send. */
export class ScriptedWebhookSender implements WebhookSender {
  readonly sent: WebhookRequest[] = [];
  next: DeliveryResult = { status: 'SUCCESS', responseCode: 200, durationMs: 5, failureReason: null };

  async send(request: WebhookRequest): Promise<DeliveryResult> {
    this.sent.push(request);
    return this.next;
  }
}

export class SequentialEventIds implements EventIdGenerator {
  private n = 0;

  eventId(): string {
    return `evt_test${String(++this.n).padStart(20, '0')}`;
  }
}

/** The webhook ports of an application on fakes: every url allowed, secrets readable, requests answered 200. */
export function fakeWebhookPorts(sender = new ScriptedWebhookSender()): Pick<ApplicationPorts, 'webhookUrls' | 'webhookDelivery'> {
  return {
    webhookUrls: { check: () => Promise.resolve() },
    webhookDelivery: {
      vault: new ReadableSecretVault(),
      sender,
      eventIds: new SequentialEventIds(),
      leaseMs: 30_000,
      retryScale: 1,
      failureThreshold: 20,
      retentionMs: 72 * 3_600_000,
    },
  };
}
