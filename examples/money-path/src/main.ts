import { createApiClient } from '@rcs/client';
import { walkMoneyPath } from './money-path';

// Each step on a line of its own: its name, then the service's answer as JSON.
const api = createApiClient({
  baseUrl: process.env.BASE_URL ?? 'http://localhost:3000',
  credentials: { clientId: process.env.CLIENT_ID ?? 'sandbox-client', clientSecret: process.env.CLIENT_SECRET ?? 'sandbox-secret' },
});

walkMoneyPath(api, (step, answer) => console.log(step.padEnd(20), JSON.stringify(answer))).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
