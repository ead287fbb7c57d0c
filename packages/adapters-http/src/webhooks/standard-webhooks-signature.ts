import { createHmac } from 'node:crypto';

/**
 * The webhook-signature header of Standard Webhooks: `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` under each
 * secret (the base64 after `whsec_`, decoded), space separated: during a rotation's grace window the integrator
 * may verify with either secret.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
