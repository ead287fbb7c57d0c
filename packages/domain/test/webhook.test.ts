import { parseSubscription, MAX_SIGNING_SECRETS, SECRET_GRACE_MS, Webhook, type ErrorCode, type WebhookOperation, type WebhookStatus } from '../src';
import { everyPair, expectMove } from '../testing';

const NOW = new Date('2026-02-01T00:00:00Z');
const LATER = new Date('2026-02-02T00:00:00Z');
const SUBSCRIPTION = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };

function webhookIn(status: WebhookStatus): Webhook {
  const active = Webhook.rehydrate({ ...Webhook.register(1, SUBSCRIPTION, { sealed: 's1', tail: 'abcd' }, NOW), id: 9 });
  return status === 'ACTIVE' ? active : status === 'PAUSED' ? active.pause(NOW) : active.fail(NOW);
}

const apply = (webhook: Webhook, operation: WebhookOperation): Webhook => {
  switch (operation) {
    case 'update':
      return webhook.replaceSubscription({ ...SUBSCRIPTION, events: ['movement.created'] }, LATER);
    case 'pause':
      return webhook.pause(LATER);
    case 'activate':
      return webhook.activate(LATER);
    case 'fail':
      return webhook.fail(LATER);
    case 'rotate-secret':
      return webhook.rotateSecret({ sealed: 's2', tail: 'wxyz' }, LATER);
  }
};

/** Every status and operation: `satisfies` makes the compiler name the one left out when a type grows. */
const STATUSES = Object.keys({ ACTIVE: true, PAUSED: true, FAILED: true } satisfies Record<WebhookStatus, true>) as WebhookStatus[];
const OPERATIONS = Object.keys({ update: true, pause: true, activate: true, fail: true, 'rotate-secret': true } satisfies Record<
  WebhookOperation,
  true
>) as WebhookOperation[];

describe('webhook state machine', () => {
  /** What each pair gives: the status the table leads to, or the code it is refused with. */
  const matrix: ReadonlyArray<[WebhookStatus, WebhookOperation, WebhookStatus | ErrorCode]> = [
    ['ACTIVE', 'update', 'ACTIVE'],
    ['ACTIVE', 'pause', 'PAUSED'],
    ['ACTIVE', 'activate', 'webhook-status-conflict'],
    ['ACTIVE', 'fail', 'FAILED'],
    ['ACTIVE', 'rotate-secret', 'ACTIVE'],
    ['PAUSED', 'update', 'PAUSED'],
    ['PAUSED', 'pause', 'webhook-status-conflict'],
    ['PAUSED', 'activate', 'ACTIVE'],
    ['PAUSED', 'fail', 'webhook-status-conflict'],
    ['PAUSED', 'rotate-secret', 'PAUSED'],
    ['FAILED', 'update', 'FAILED'],
    ['FAILED', 'pause', 'webhook-status-conflict'],
    ['FAILED', 'activate', 'ACTIVE'],
    ['FAILED', 'fail', 'webhook-status-conflict'],
    ['FAILED', 'rotate-secret', 'FAILED'],
  ];

  it.each(everyPair(STATUSES, OPERATIONS, matrix))('from %s, %s gives %s, as the table says', (from, operation, outcome) => {
    expect(Webhook.nextStatus(from, operation) ?? 'refused').toBe((STATUSES as string[]).includes(outcome) ? outcome : 'refused');
    const before = webhookIn(from);
    expectMove(STATUSES, before, () => apply(before, operation), outcome, LATER);
  });

  it('states each (status, operation) pair once', () => {
    expect(matrix).toHaveLength(STATUSES.length * OPERATIONS.length);
  });
});

describe('webhook secrets', () => {
  it('signs with the current secret alone until a rotation', () => {
    expect(webhookIn('ACTIVE').signingSecrets(LATER)).toEqual(['s1']);
  });

  it('signs with both secrets during the grace window after a rotation, then with the new one alone', () => {
    const rotated = webhookIn('ACTIVE').rotateSecret({ sealed: 's2', tail: 'wxyz' }, LATER);
    const at = (ms: number) => new Date(LATER.getTime() + ms);
    expect(rotated.signingSecrets(at(SECRET_GRACE_MS - 1))).toEqual(['s2', 's1']);
    expect(rotated.signingSecrets(at(SECRET_GRACE_MS))).toEqual(['s2']);
    expect(rotated.toSnapshot().secrets.current.tail).toBe('wxyz');
  });

  it('keeps every replaced secret signing through its own grace window, up to MAX_SIGNING_SECRETS in all', () => {
    const at = (ms: number) => new Date(LATER.getTime() + ms);
    let webhook = webhookIn('ACTIVE');
    for (const n of [2, 3, 4, 5, 6]) webhook = webhook.rotateSecret({ sealed: `s${n}`, tail: `t${n}` }, at(n * 1000));
    expect(webhook.signingSecrets(at(6000))).toEqual(['s6', 's5', 's4', 's3', 's2']);
    expect(webhook.signingSecrets(at(6000))).toHaveLength(MAX_SIGNING_SECRETS);
    // s2 was replaced at 3 s: its grace ends 24 h later, while s5's (replaced at 6 s) still runs.
    expect(webhook.signingSecrets(at(3000 + SECRET_GRACE_MS))).toEqual(['s6', 's5', 's4', 's3']);
    expect(webhook.signingSecrets(at(6000 + SECRET_GRACE_MS))).toEqual(['s6']);
  });
});

describe('webhook subscription', () => {
  it('keeps an https url and each known event type once', () => {
    expect(parseSubscription({ url: 'https://Erp.Example:8443/hooks?x=1', events: ['receivable.paid', 'movement.created', 'receivable.paid'] })).toEqual({
      url: 'https://erp.example:8443/hooks?x=1',
      events: ['receivable.paid', 'movement.created'],
    });
  });

  it.each([
    ['http://erp.example/hooks', 'must be an https:// URL'],
    ['erp.example/hooks', 'must be an absolute URL'],
    ['https://user:pass@erp.example/hooks', 'must not carry credentials'],
    ['https://erp.example/hooks#part', 'must not carry a #fragment'],
    ['https://erp.example:0/hooks', 'must name a port from 1 to 65535'],
    ['https:///hooks', 'must name its host right after https://'],
    ['https:erp.example/hooks', 'must name its host right after https://'],
    ['https:\\\\erp.example/hooks', 'must name its host right after https://'],
  ])('refuses %s: %s', (url, reason) => {
    expect(() => parseSubscription({ url, events: ['receivable.paid'] })).toThrow(
      expect.objectContaining({ code: 'validation', invalidParams: [{ name: 'url', reason }] }),
    );
  });

  it('measures a url as stored: percent-encoded, so that it can be sent back as read', () => {
    // 1,020 characters sent, 6,020 once each é is percent-encoded.
    expect(() => parseSubscription({ url: `https://erp.example/${'é'.repeat(1_000)}`, events: ['receivable.paid'] })).toThrow(
      expect.objectContaining({ invalidParams: [{ name: 'url', reason: 'must be at most 2048 characters, percent-encoded' }] }),
    );
    expect(parseSubscription({ url: `https://erp.example/${'é'.repeat(300)}`, events: ['receivable.paid'] }).url).toHaveLength(1_820);
  });

  it('refuses an unknown event type with invalid-event-type, and no event type with validation', () => {
    expect(() => parseSubscription({ url: SUBSCRIPTION.url, events: ['receivable.paid', 'invoice.sent'] })).toThrow(
      expect.objectContaining({ code: 'invalid-event-type' }),
    );
    expect(() => parseSubscription({ url: SUBSCRIPTION.url, events: [] })).toThrow(expect.objectContaining({ code: 'validation' }));
  });
});
