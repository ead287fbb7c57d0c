import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '@rcs/client';
import { Webhook } from 'standardwebhooks';

/** The receiver's TLS identity: a key and a certificate for localhost, both PEM. */
export interface ReceiverTls {
  readonly key: string;
  readonly cert: string;
}

/** What reached the receiver so far. */
export interface Received {
  /** Each verified event once, by its id (the webhook-id header), in the order they first arrived. */
  readonly events: ReadonlyMap<string, WebhookEvent>;
  /** Verified deliveries of an event already received: skipped, answered 2xx so the service stops sending them. */
  readonly duplicates: number;
  /** Deliveries whose signature did not verify: answered 400, never handled. */
  readonly refused: number;
}

export interface WebhookReceiver {
  /** Where the service is to send: https://127.0.0.1:<port>/hooks (the certificate names 127.0.0.1 and localhost). */
  readonly url: string;
  /** The secret from the webhook's creation answer: deliveries wait for it, then each is verified with it. */
  verifyWith(secret: string): void;
  received(): Received;
  close(): Promise<void>;
}

/**
 * An integrator's endpoint in a few lines: each delivery's raw body verified with standardwebhooks before anything
 * reads it, each event handled once however often it is delivered (delivery is at least once), and a fast 2xx.
 */
export async function startWebhookReceiver(tls: ReceiverTls): Promise<WebhookReceiver> {
  let verify!: (secret: string) => void;
  const verifier = new Promise<Webhook>((resolve) => (verify = (secret) => resolve(new Webhook(secret))));
  const events = new Map<string, WebhookEvent>();
  let duplicates = 0;
  let refused = 0;

  /** The answer to one delivery: 400 unless it verifies; 204 once handled, and for an event handled already. */
  const answer = (webhook: Webhook, body: string, headers: IncomingHttpHeaders): number => {
    let event: WebhookEvent;
    try {
      // Throws on a bad signature, a missing header or a timestamp more than 5 minutes off.
      event = webhook.verify(body, headers as Record<string, string>) as WebhookEvent;
    } catch {
      refused++;
      return 400;
    }
    if (events.has(event.id)) duplicates++;
    else events.set(event.id, event);
    return 204;
  };
  const server = createServer(tls, (req, res) => {
    void Promise.all([verifier, rawBody(req)]).then(
      ([webhook, body]) => res.writeHead(answer(webhook, body, req.headers)).end(),
      // The service gave up mid-body (its deadline passed): it sends the event again later.
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}/hooks`,
    verifyWith: verify,
    received: () => ({ events, duplicates, refused }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
