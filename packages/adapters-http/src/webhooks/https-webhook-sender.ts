import { Agent, request as httpsRequest, type RequestOptions } from 'node:https';
import { createSecureContext, rootCertificates } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import type { DeliveryResult, WebhookRequest, WebhookSender } from '@rcs/domain';
import { internalLiteralOf, reachableLookup, type Reach } from './address-guard';
import type { ResolveHost } from './host-resolver';
import { signatureHeader } from './standard-webhooks-signature';

export interface WebhookSenderOptions {
  /** Whole attempt, from the call to the last byte read (CONTRACT: a 2xx within 15 s is success). */
  readonly timeoutMs: number;
  /** Connections to one webhook's endpoint at once; more attempts wait their turn. */
  readonly maxConnectionsPerEndpoint: number;
  /** Production: public addresses alone; sandbox: loopback too. Others are refused at connection time. */
  readonly reach: Reach;
  /** PEM of extra trusted certificate authorities (WEBHOOK_CA_FILE). */
  readonly extraCa?: string;
  /** How host names are resolved; `reach` picks one (resolverFor) unless given. */
  readonly resolveHost?: ResolveHost;
}

/** Past this much of a response body the connection is dropped: the body is not read for anything but draining. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

class AttemptTimeout extends Error {}

type PooledRequestOptions = RequestOptions & { readonly webhookId?: number };

/**
 * Connections pooled per webhook, not per host and port as Node's agent does: two webhooks on one host (an
 * integrator's two URLs) would share `maxSockets`, and one whose endpoint hangs would hold them all until its
 * deadlines, the other's attempts waiting for a connection and timing out unsent (the deadline runs from the call).
 */
class PerWebhookAgent extends Agent {
  override getName(options?: PooledRequestOptions): string {
    return `${super.getName(options)}:${options?.webhookId ?? ''}`;
  }
}

/**
 * How long a connection is kept alive idle: under the 5 s after which Node's servers close theirs (a request sent
 * on a connection the server is closing fails), and short enough that the connections of webhooks that sent
 * nothing lately do not pile up.
 */
export const IDLE_CONNECTION_MS = 4_000;

/**
 * POSTs signed events over HTTPS: keep-alive connections, a bound per webhook (so a slow endpoint holds only its
 * own connections), one deadline per attempt, redirects never followed, bodies read up to a cap.
 */
export class HttpsWebhookSender implements WebhookSender {
  private readonly agent: PerWebhookAgent;

  constructor(private readonly options: WebhookSenderOptions) {
    // No total: the delivery worker bounds the attempts in flight (WEBHOOK_MAX_CONNECTIONS); a total here would make
    // an attempt wait for a connection another webhook keeps idle.
    this.agent = new PerWebhookAgent({
      keepAlive: true,
      maxSockets: options.maxConnectionsPerEndpoint,
      maxFreeSockets: options.maxConnectionsPerEndpoint,
      // A kept-alive connection's idle time: an attempt's own deadline covers it while it is in use.
      timeout: IDLE_CONNECTION_MS,
      // A context built once, not `ca`: the agent names its connection pools by their options, `ca` included, so
      // the public roots plus the extra CA (about 200 KB of PEM) were joined into a string on every request (most of
      // the sender's CPU at a thousand deliveries a second), and parsed again for every new connection.
      ...(options.extraCa ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.extraCa] }) } : {}),
      lookup: reachableLookup(options.reach, options.resolveHost),
    });
  }

  send(request: WebhookRequest): Promise<DeliveryResult> {
    const literal = internalLiteralOf(request.url, this.options.reach);
    if (literal) return Promise.resolve({ status: 'FAILED', responseCode: null, durationMs: 0, failureReason: literal.message });
    const started = performance.now();
    const timestamp = Math.floor(Date.now() / 1000);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<DeliveryResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
      };
      const options: PooledRequestOptions = {
        method: 'POST',
        agent: this.agent,
        webhookId: request.webhookId,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'rcs-webhooks/1.0',
          'webhook-id': request.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(request.secrets, request.eventId, timestamp, request.body),
        },
      };
      const req = httpsRequest(request.url, options, (res) => this.read(res, finish, fail));
      let timedOut = false;
      // Past the deadline, whichever side reports the cut first, the reason is the deadline.
      const fail = (error: Error) => finish({ status: 'FAILED', responseCode: null, failureReason: this.reasonOf(timedOut ? new AttemptTimeout() : error) });
      const deadline = setTimeout(() => {
        timedOut = true;
        req.destroy(new AttemptTimeout());
      }, this.options.timeoutMs);
      req.on('error', fail);
      req.end(request.body);
    });
  }

  /** Closes idle connections; attempts in flight end as they would. */
  close(): void {
    this.agent.destroy();
  }

  /** The result once the body is read (or capped): success is a 2xx; a redirect is a failure, never followed. */
  private read(res: IncomingMessage, done: (outcome: Omit<DeliveryResult, 'durationMs'>) => void, fail: (error: Error) => void): void {
    const code = res.statusCode ?? 0;
    const outcome: Omit<DeliveryResult, 'durationMs'> =
      code >= 200 && code < 300
        ? { status: 'SUCCESS', responseCode: code, failureReason: null }
        : { status: 'FAILED', responseCode: code, failureReason: code >= 300 && code < 400 ? `redirect (${code}) not followed` : `answered ${code}` };
    let received = 0;
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_RESPONSE_BYTES) {
        res.destroy();
        done(outcome);
      }
    });
    res.on('end', () => done(outcome));
    // Cut before the end: the deadline, or the endpoint hanging up.
    res.on('error', fail);
    res.on('close', () => {
      if (!res.complete) fail(new Error('the connection closed before the answer was complete'));
    });
  }

  private reasonOf(error: Error): string {
    if (error instanceof AttemptTimeout) return `no complete answer within ${this.options.timeoutMs} ms`;
    const code = (error as { code?: string }).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
}
