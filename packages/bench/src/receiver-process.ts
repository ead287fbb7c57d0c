import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { forkServer } from './children';
import { treeCpuSeconds } from './cpu';
import type { ReceiverCommand, ReceiverCounts } from './webhook-receiver';

export interface ReceiverProcess {
  /** The HTTPS url of webhook `n`'s path on the receiver. */
  urlOf(n: number): string;
  /** PEM of the CA that signed the receiver's certificate: what WEBHOOK_CA_FILE names, and what a client trusts. */
  readonly caFile: string;
  readonly ca: string;
  /** Sets each path's signing secret (by urlOf's n) and starts the counts again. */
  expect(secrets: readonly string[]): Promise<void>;
  counts(): Promise<ReceiverCounts>;
  cpuSeconds(): number;
  stop(): void;
}

/**
 * A CA made for this run and a certificate it signs for localhost and 127.0.0.1 (P-256 keys, made in
 * milliseconds), with the openssl CLI: nothing the service trusts by default, so the run shows WEBHOOK_CA_FILE works.
 */
function makeCertificates(dir: string): { caFile: string; keyFile: string; certFile: string } {
  const file = (name: string) => path.join(dir, name);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  const openssl = (...args: string[]) => execFileSync('openssl', ['req', '-x509', ...newKey, ...args], { stdio: 'pipe' });
  openssl('-subj', '/CN=rcs bench CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl(
    ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-addext', 'basicConstraints=critical,CA:FALSE'],
    ...['-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-keyout', file('server.key'), '-out', file('server.pem')],
  );
  return { caFile: file('ca.pem'), keyFile: file('server.key'), certFile: file('server.pem') };
}

/** The receiver (webhook-receiver.ts) in a process of its own, with the certificates made for it. */
export async function startReceiver(): Promise<ReceiverProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rcs-bench-ca-'));
  const { caFile, keyFile, certFile } = makeCertificates(dir);
  const { child, url } = await forkServer(path.join(__dirname, 'webhook-receiver.js'), { RECEIVER_KEY_FILE: keyFile, RECEIVER_CERT_FILE: certFile });
  const port = new URL(url).port;
  // One question at a time: the next message of the asked type is the answer.
  const ask = <T>(command: ReceiverCommand) =>
    new Promise<T>((resolve) => {
      const answer = (message: { type: string }) => {
        if (message.type !== command.type) return;
        child.off('message', answer);
        resolve(message as T);
      };
      child.on('message', answer);
      child.send(command);
    });
  return {
    urlOf: (n) => `https://localhost:${port}/hooks/${n}`,
    caFile,
    ca: readFileSync(caFile, 'utf8'),
    async expect(secrets) {
      await ask({ type: 'secrets', secrets: Object.fromEntries(secrets.map((secret, n) => [`/hooks/${n}`, secret])) });
    },
    counts: () => ask<ReceiverCounts>({ type: 'counts' }),
    cpuSeconds: () => treeCpuSeconds(child.pid!),
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
