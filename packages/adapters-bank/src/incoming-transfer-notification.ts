import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CURRENCY_CODE_FORM,
  CURRENCY_CODE_RULE,
  DomainError,
  inexactNumbers,
  Money,
  parseReportedTaxId,
  storedText,
  utf8Body,
  ValidationError,
  type IncomingTransferNotifications,
  type RecordIncomingTransferInput,
} from '@rcs/domain';

/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body>` under the shared notification secret. */
export const SIGNATURE_HEADER = 'x-bank-signature';

/** What the provider posts when money arrives on a CVU. */
export interface IncomingTransferNotification {
  /** The provider's transfer id; the service records each id once. */
  readonly notificationId: string;
  readonly cvu: string;
  readonly amount: string;
  readonly currencyCode: string;
  readonly counterParty: { readonly name: string; readonly taxId: string };
}

export function signNotification(rawBody: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of the signature header against the raw bytes received. */
export function verifyNotificationSignature(rawBody: Uint8Array, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(signNotification(rawBody, secret));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The notification as the collection use case takes it; 400 validation naming what is wrong. */
export function parseIncomingTransfer(body: unknown): RecordIncomingTransferInput {
  const b = (body ?? {}) as Partial<IncomingTransferNotification>;
  const missing = (['notificationId', 'cvu', 'amount', 'currencyCode', 'counterParty'] as const).filter((k) => b[k] === undefined || b[k] === null);
  if (missing.length) throw new ValidationError(missing.map((name) => ({ name, reason: 'is required' })));
  if (typeof b.notificationId !== 'string' || b.notificationId.length === 0 || b.notificationId.length > 128) {
    throw ValidationError.of('notificationId', 'must be a string of 1 to 128 characters');
  }
  if (typeof b.cvu !== 'string' || !/^\d{22}$/.test(b.cvu)) throw ValidationError.of('cvu', 'must be 22 digits');
  if (typeof b.currencyCode !== 'string' || !CURRENCY_CODE_FORM.test(b.currencyCode)) throw ValidationError.of('currencyCode', CURRENCY_CODE_RULE);
  if (typeof b.counterParty?.name !== 'string' || !b.counterParty.name) throw ValidationError.of('counterParty.name', 'is required');
  return {
    providerReference: storedText(b.notificationId, 'notificationId'),
    cvu: b.cvu,
    amount: Money.parse(b.amount, 'amount'),
    currencyCode: b.currencyCode,
    counterParty: { name: storedText(b.counterParty.name, 'counterParty.name'), taxId: parseReportedTaxId(b.counterParty.taxId, 'counterParty.taxId') },
  };
}

/** The provider's notifications as this service receives them: signed with HMAC-SHA256 under a shared secret. */
export class SignedIncomingTransferNotifications implements IncomingTransferNotifications {
  readonly signatureHeader = SIGNATURE_HEADER;

  constructor(private readonly secret: string) {}

  read(rawBody: Uint8Array, signature: string | undefined): RecordIncomingTransferInput {
    if (!verifyNotificationSignature(rawBody, signature, this.secret)) {
      throw new DomainError('unauthorized', `missing or wrong ${SIGNATURE_HEADER} signature`);
    }
    // Read as the API reads its bodies: a literal a double cannot hold would credit its neighbour.
    const text = utf8Body(rawBody);
    const inexact = inexactNumbers(text);
    if (inexact.length > 0) throw new ValidationError(inexact);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new DomainError('validation', 'the notification body is not valid JSON', { invalidParams: [{ name: 'body', reason: 'not valid JSON' }] });
    }
    return parseIncomingTransfer(body);
  }
}

/** What the provider does: post the notification, signed, to the service. */
export function sendIncomingTransfer(url: string, secret: string, notification: IncomingTransferNotification): Promise<Response> {
  const body = JSON.stringify(notification);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signNotification(body, secret) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}
