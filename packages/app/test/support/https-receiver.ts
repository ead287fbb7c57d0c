import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestCertificates {
  /** The PEM file of the CA that signed the receiver's certificate: WEBHOOK_CA_FILE. */
  readonly caFile: string;
  readonly key: string;
  readonly cert: string;
}

/** A self-signed CA and a certificate it signs for localhost and 127.0.0.1, made with the openssl CLI. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'rcs-webhook-ca-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=rcs test CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr'));
  writeFileSync(file('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('san.ext'),
    '-out',
    file('server.pem'),
  );
  return { caFile: file('ca.pem'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8') };
}

export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Receiver {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** Connections opened to it: keep-alive shows as fewer connections than requests. */
  readonly connections: () => number;
  close(): Promise<void>;
}

/** A local HTTPS endpoint; `answer` writes each response (200 by default), after the request body is read. */
export async function startReceiver(
  certificates: TestCertificates,
  answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok'),
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server: Server = createServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(req, res);
    });
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/hooks`,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
