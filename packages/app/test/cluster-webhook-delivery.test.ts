import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { validTaxId } from '@rcs/domain/testing';
import { makeCertificates, startReceiver, type Receiver } from './support/https-receiver';
import { startService, type ServiceProcess } from './support/processes';
import { until } from './support/until';

const workersOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);

/** The process whose socket has local port `port` on 127.0.0.1: its inode in /proc/net/tcp, then whose fd it is. */
function processOfPort(port: number, candidates: readonly number[]): number | undefined {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const line = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .find((fields) => fields[1] === local);
  if (!line) return undefined;
  const socket = `socket:[${line[9]}]`;
  return candidates.find((pid) => readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`) === socket));
}

function readlinkSafe(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined; // Closed since the directory was read.
  }
}

/** Webhook delivery in a service of several HTTP processes: each sends, within limits set for the whole service. */
describe('webhook delivery from every HTTP worker', () => {
  const itWithWorkers = itOnRealServer('embedded PGlite belongs to one process; HTTP workers need a PostgreSQL server');
  const certificates = makeCertificates();
  let db: TestDatabase;
  let service: ServiceProcess | undefined;
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    await service?.exit;
    await receiver?.close();
    await db.close();
  });

  itWithWorkers('sends from both processes, never more at once to an endpoint than the service-wide limit', async () => {
    const held: { res: ServerResponse; port: number }[] = [];
    let releasing = false;
    receiver = await startReceiver(certificates, (req, res) => (releasing ? res.end('ok') : held.push({ res, port: req.socket.remotePort! })));
    const database = new URL(db.url);
    database.searchParams.set('options', `-c search_path=${db.schema}`);
    service = await startService({
      DATABASE_URL: database.toString(),
      HTTP_WORKERS: '2',
      WEBHOOK_CA_FILE: certificates.caFile,
      WEBHOOK_MAX_CONNECTIONS_PER_ENDPOINT: '3',
      WEBHOOK_DISPATCH_POLL_MS: '50',
      SANDBOX_PROVISIONING_DELAY_MS: '0',
      SETTLEMENT_CRON: '0 0 1 1 *',
    });
    const { url } = service;
    const call = async (method: string, path: string, body?: object, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `cluster-${Math.random()}`,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body && JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown> & { id: number };
    };
    const { accessToken } = (await call('post', '/v1/auth/login', { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' })) as unknown as {
      accessToken: string;
    };
    await call('post', '/v1/webhooks', { url: receiver.url, events: ['receivable.created'] }, accessToken);
    const client = await call(
      'post',
      '/v1/clients',
      {
        businessName: 'Kiosco Cluster SA',
        taxId: validTaxId('30', 47000000),
        documentType: 'CUIT',
        branchExternalCode: 'B1',
        branchDescription: 'Centro',
        branchReferenceAddress: 'Calle 1',
      },
      accessToken,
    );
    const account = await call('post', '/v1/receivable-accounts', { clientId: client.id }, accessToken);
    await until('the account active', async () => (await call('get', `/v1/receivable-accounts/${account.id}`, undefined, accessToken)).status === 'ACTIVE');
    const body = { receivableAccountId: account.id, amount: '10.00', currencyCode: 'ARS', receivableType: 'INVOICE' };
    for (let i = 0; i < 8; i++) await call('post', '/v1/receivables', body, accessToken);

    await until('three attempts held by the endpoint', () => held.length === 3);
    // Time for a fourth, had either process taken more than its share.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(held).toHaveLength(3);
    const workers = workersOf(service.child.pid!);
    const senders = new Set(held.map(({ port }) => processOfPort(port, workers)));
    expect([...senders].sort()).toEqual([...workers].sort());

    releasing = true;
    for (const { res } of held) res.end('ok');
    await until('every event delivered', () => new Set(receiver!.received.map((r) => r.headers['webhook-id'])).size === 8, 30_000);
  });
});
