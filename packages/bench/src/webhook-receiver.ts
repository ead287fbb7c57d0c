import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { listenForBench } from './children';

/** What the bench asks of the receiver, over IPC. */
export type ReceiverCommand = { readonly type: 'secrets'; readonly secrets: Record<string, string> } | { readonly type: 'counts' };

/** What the receiver has taken since its secrets were last set. */
export interface ReceiverCounts {
  readonly type: 'counts';
  /** Deliveries whose signature verified, repeats included. */
  readonly verified: number;
  /** Distinct (path, webhook-id) pairs among them: at least once means a repeat is possible, and it counts once here. */
  readonly distinct: number;
  readonly failed: number;
  /** Date.now() of the last verified delivery. */
  readonly lastVerifiedAt: number;
  /** TLS connections opened: keep-alive shows as a handful for thousands of deliveries. */
  readonly connections: number;
}

/**
 * An integrator's endpoint, forked by the bench: HTTPS (a certificate the bench's CA signed), keep-alive, every
 * delivery verified with `standardwebhooks` under the secret of the webhook its path names, then answered 204
 * (after BENCH_RECEIVER_DELAY_MS, 0 by default: a slow endpoint). A delivery that does not verify is answered 204
 * too (a retry would not fix it) and counted as failed.
 */
function receive(): void {
  const delayMs = Number(process.env.BENCH_RECEIVER_DELAY_MS ?? 0);
  const answer = (res: ServerResponse) => (delayMs > 0 ? setTimeout(() => res.writeHead(204).end(), delayMs) : res.writeHead(204).end());
  let hooks = new Map<string, Webhook>();
  const seen = new Set<string>();
  let counts = { verified: 0, failed: 0, lastVerifiedAt: 0, connections: 0 };
  const server = createServer(
    { key: readFileSync(process.env.RECEIVER_KEY_FILE!), cert: readFileSync(process.env.RECEIVER_CERT_FILE!), keepAliveTimeout: 60_000 },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        try {
          hooks.get(req.url ?? '')!.verify(Buffer.concat(chunks), req.headers as Record<string, string>);
          counts.verified++;
          counts.lastVerifiedAt = Date.now();
          seen.add(`${req.url} ${String(req.headers['webhook-id'])}`);
        } catch {
          counts.failed++;
        }
        answer(res);
      });
    },
  );
  server.on('secureConnection', () => counts.connections++);
  process.on('message', (command: ReceiverCommand) => {
    if (command.type === 'secrets') {
      hooks = new Map(Object.entries(command.secrets).map(([path, secret]) => [path, new Webhook(secret)]));
      seen.clear();
      counts = { verified: 0, failed: 0, lastVerifiedAt: 0, connections: 0 };
      process.send?.({ type: 'secrets' });
    } else process.send?.({ type: 'counts', ...counts, distinct: seen.size } satisfies ReceiverCounts);
  });
  listenForBench(server);
}

receive();
