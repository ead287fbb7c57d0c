import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createApiClient } from '@rcs/client';
import { walkMoneyPath } from './money-path';
import { withWebhookReceiver } from './webhook-events';
import type { Report } from './walk';

// Each step on a line of its own: its name, then the service's answer as JSON.
const api = createApiClient({
  baseUrl: process.env.BASE_URL ?? 'http://localhost:3000',
  credentials: { clientId: process.env.CLIENT_ID ?? 'sandbox-client', clientSecret: process.env.CLIENT_SECRET ?? 'sandbox-secret' },
});
const report: Report = (step, answer) => console.log(step.padEnd(20), JSON.stringify(answer));
const walk = () => walkMoneyPath(api, report);

// The receiver's key and certificate for localhost, as `npm run certificate` makes them. The service trusts the
// certificate only when started with WEBHOOK_CA_FILE naming it (webhook urls are https:// only).
const certificates = path.join(__dirname, '..', '..', '.receiver');
const keyFile = process.env.RECEIVER_KEY_FILE ?? path.join(certificates, 'key.pem');
const certFile = process.env.RECEIVER_CERT_FILE ?? path.join(certificates, 'cert.pem');

function walkWithReceiver() {
  if (existsSync(keyFile) && existsSync(certFile)) {
    return withWebhookReceiver(api, report, { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') }, walk);
  }
  report('no-webhook-receiver', `no ${certFile}: npm run certificate -w examples/money-path, then start the service with WEBHOOK_CA_FILE=${certFile}`);
  return walk();
}

walkWithReceiver().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
