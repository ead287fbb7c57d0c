import { startBankSimulator } from './bank-simulator';

/** `npm run bank-simulator`: the provider simulator on its own, for pointing a service at with BANK_PROVIDER_URL. */
async function main(): Promise<void> {
  const port = Number(process.env.BANK_SIMULATOR_PORT ?? 4010);
  const notifyUrl = process.env.BANK_SIMULATOR_NOTIFY_URL;
  const secret = process.env.BANK_NOTIFICATION_SECRET;
  const simulator = await startBankSimulator(port, {
    provisioningDelayMs: Number(process.env.SANDBOX_PROVISIONING_DELAY_MS ?? 500),
    ...(notifyUrl && secret ? { notify: { url: notifyUrl, secret } } : {}),
  });
  process.stdout.write(`bank simulator listening on ${simulator.url}\n`);
  const stop = () => void simulator.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
