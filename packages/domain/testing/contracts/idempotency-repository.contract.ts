import type { StoredResponse } from '../../src';
import { useHarness, type HarnessFactory } from './harness';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const LATER = new Date('2026-03-02T10:00:01.000Z');
const EXPIRES = new Date('2026-03-02T10:00:00.000Z');

export function idempotencyRepositoryContract(factory: HarnessFactory): void {
  describe('idempotency repository', () => {
    const ctx = useHarness(factory);
    let credentialId = 0;
    const claim = (key: string, fingerprint = 'fp-1', now = NOW, expiresAt = new Date(now.getTime() + 86_400_000)) =>
      ctx.h.uow.run((tx) => tx.idempotency.claim({ credentialId, key, fingerprint, now, expiresAt }));

    beforeAll(async () => {
      const customerId = await ctx.newCustomer();
      const { credential } = await ctx.h.uow.run((tx) =>
        tx.credentials.insertIfAbsent({
          customerId,
          clientId: `idem-${process.pid}-${Date.now()}`,
          secretHash: 'x',
          scopes: [],
          status: 'ACTIVE',
          creationDate: NOW,
        }),
      );
      credentialId = credential.id;
    });

    it('acquires a new key and replays the completed response, its body the very text stored, for the same fingerprint', async () => {
      const response = { status: 201, body: '{"id":5, "amount":10.50,"a":[]}', location: '/v1/clients/5' };
      await ctx.h.uow.run(async (tx) => {
        expect(await tx.idempotency.claim({ credentialId, key: 'k1', fingerprint: 'fp-1', now: NOW, expiresAt: EXPIRES })).toEqual({ kind: 'acquired' });
        await tx.idempotency.complete(credentialId, 'k1', response);
      });
      expect(await claim('k1')).toEqual({ kind: 'replay', response, expiresAt: EXPIRES });
    });

    it('reports a different fingerprint under a used key as a mismatch', async () => {
      await ctx.h.uow.run(async (tx) => {
        await tx.idempotency.claim({ credentialId, key: 'k2', fingerprint: 'fp-1', now: NOW, expiresAt: EXPIRES });
        await tx.idempotency.complete(credentialId, 'k2', { status: 204, body: null });
      });
      expect(await claim('k2', 'fp-other')).toEqual({ kind: 'mismatch' });
    });

    it('finds a completed record without claiming it, and nothing for a free, expired or rolled back key', async () => {
      const response = { status: 201, body: '{"id":6}' };
      await ctx.h.uow.run(async (tx) => {
        await tx.idempotency.claim({ credentialId, key: 'f1', fingerprint: 'fp-1', now: NOW, expiresAt: EXPIRES });
        await tx.idempotency.complete(credentialId, 'f1', response);
      });
      const find = (key: string, now = NOW) => ctx.h.uow.run((tx) => tx.idempotency.find(credentialId, key, now));
      expect(await find('f1')).toEqual({ fingerprint: 'fp-1', response, expiresAt: EXPIRES });
      expect([await find('f1', LATER), await find('f-none')]).toEqual([undefined, undefined]);
      await expect(
        ctx.h.uow.run(async (tx) => {
          await tx.idempotency.claim({ credentialId, key: 'f2', fingerprint: 'fp-1', now: NOW, expiresAt: EXPIRES });
          throw new Error('server error');
        }),
      ).rejects.toThrow('server error');
      expect(await find('f2')).toBeUndefined();
    });

    it('releases the key when the claiming transaction rolls back', async () => {
      await expect(
        ctx.h.uow.run(async (tx) => {
          await tx.idempotency.claim({ credentialId, key: 'k3', fingerprint: 'fp-1', now: NOW, expiresAt: EXPIRES });
          throw new Error('server error');
        }),
      ).rejects.toThrow('server error');
      expect(await claim('k3', 'fp-any')).toEqual({ kind: 'acquired' });
    });

    it('treats an expired key as new', async () => {
      await ctx.h.uow.run(async (tx) => {
        await tx.idempotency.claim({ credentialId, key: 'k4', fingerprint: 'fp-1', now: NOW, expiresAt: EXPIRES });
        await tx.idempotency.complete(credentialId, 'k4', { status: 200, body: '{}' });
      });
      expect(await claim('k4', 'fp-2', LATER)).toEqual({ kind: 'acquired' });
    });

    describe('a held claim (committed alone, its answer stored later)', () => {
      const HELD_UNTIL = new Date(NOW.getTime() + 300_000);
      const hold = (key: string) => ({ credentialId, key, heldUntil: HELD_UNTIL });
      const holdKey = (key: string) => claim(key, 'fp-1', NOW, HELD_UNTIL);
      const completeHeld = (key: string, response: StoredResponse = { status: 201, body: '{"ran":1}' }) =>
        ctx.h.uow.run((tx) => tx.idempotency.completeHeld(hold(key), response, EXPIRES));

      it('is in progress for a repeat, a mismatch for another body, and replays once its answer is stored', async () => {
        expect(await holdKey('h1')).toEqual({ kind: 'acquired' });
        expect(await claim('h1')).toEqual({ kind: 'in-progress' });
        expect(await claim('h1', 'fp-other')).toEqual({ kind: 'mismatch' });
        expect(await ctx.h.uow.run((tx) => tx.idempotency.find(credentialId, 'h1', NOW))).toBeUndefined();
        expect(await completeHeld('h1')).toBe(true);
        expect(await claim('h1')).toEqual({ kind: 'replay', response: { status: 201, body: '{"ran":1}' }, expiresAt: EXPIRES });
        // Answered: the hold is over, and a second completion changes nothing.
        expect(await completeHeld('h1', { status: 500, body: null })).toBe(false);
        expect(await claim('h1')).toMatchObject({ kind: 'replay', response: { status: 201 } });
      });

      it('is extended by its holder, past its first expiry, and then answered under the new one alone', async () => {
        await holdKey('h4');
        const later = new Date(HELD_UNTIL.getTime() + 60_000);
        expect(await ctx.h.uow.run((tx) => tx.idempotency.extendHeld(hold('h4'), later))).toBe(true);
        expect(await claim('h4', 'fp-1', new Date(HELD_UNTIL.getTime() + 1))).toEqual({ kind: 'in-progress' });
        expect(await completeHeld('h4')).toBe(false);
        const extended = { credentialId, key: 'h4', heldUntil: later };
        expect(await ctx.h.uow.run((tx) => tx.idempotency.completeHeld(extended, { status: 200, body: '{}' }, EXPIRES))).toBe(true);
        expect(await ctx.h.uow.run((tx) => tx.idempotency.extendHeld(extended, new Date(later.getTime() + 1)))).toBe(false);
      });

      it('frees the key when released', async () => {
        await holdKey('h2');
        await ctx.h.uow.run((tx) => tx.idempotency.releaseHeld(hold('h2')));
        expect(await claim('h2', 'fp-other')).toEqual({ kind: 'acquired' });
      });

      it('is taken over once its hold runs out (a crash), and the old holder can then neither answer nor free it', async () => {
        await holdKey('h3');
        const after = new Date(HELD_UNTIL.getTime() + 1);
        expect(await claim('h3', 'fp-1', after)).toEqual({ kind: 'acquired' });
        expect(await completeHeld('h3')).toBe(false);
        await ctx.h.uow.run((tx) => tx.idempotency.releaseHeld(hold('h3')));
        expect(await claim('h3', 'fp-other', after)).toEqual({ kind: 'mismatch' });
      });
    });

    it('purges expired records, up to a limit, and keeps live ones', async () => {
      const FAR = new Date('2026-04-01T00:00:00.000Z');
      await ctx.h.uow.run(async (tx) => {
        for (const [key, expiresAt] of [
          ['p1', EXPIRES],
          ['p2', EXPIRES],
          ['p3', FAR],
        ] as const) {
          await tx.idempotency.claim({ credentialId, key, fingerprint: 'fp-1', now: NOW, expiresAt });
          await tx.idempotency.complete(credentialId, key, { status: 200, body: '{}' });
        }
      });
      const purge = (limit: number) => ctx.h.uow.run((tx) => tx.idempotency.purgeExpired(LATER, limit));
      expect(await purge(1)).toBe(1);
      expect(await purge(10_000)).toBeGreaterThanOrEqual(1);
      // Gone: the same key under another body starts afresh (a kept record would say mismatch) ...
      expect([await claim('p1', 'fp-other'), await claim('p2', 'fp-other')]).toEqual([{ kind: 'acquired' }, { kind: 'acquired' }]);
      // ... while the live one still answers.
      expect(await claim('p3', 'fp-other')).toEqual({ kind: 'mismatch' });
    });
  });
}
