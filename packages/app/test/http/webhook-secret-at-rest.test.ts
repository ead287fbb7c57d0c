import pino from 'pino';
import request from 'supertest';
import { useTestApi } from '../support/test-api';
import { key } from '../support/fixtures';

/**
 * A webhook's secret is shown on creation and rotation only, and never rests in clear: not in the webhooks table,
 * not in the answer an Idempotency-Key keeps for a replay, not in the logs.
 */
describe('webhook secrets at rest', () => {
  const logLines: string[] = [];
  const ctx = useTestApi({}, pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) }));
  const body = { url: 'https://erp.example/hooks', events: ['receivable.paid'] };

  /** The request again on another instance: its replay cache is empty, so the answer comes from storage. */
  const replayFromStorage = (path: string, headers: Record<string, string>, sent?: object) => {
    const req = request(ctx.api.otherInstance()).post(path).set('Authorization', `Bearer ${ctx.token}`).set(headers);
    return sent === undefined ? req : req.send(sent);
  };

  /** What the key keeps, in every column, must not hold the secret: neither whole nor its random part. */
  const expectSealedUnder = async (headers: Record<string, string>, secret: string) => {
    const row = await ctx.api.db.knex('idempotency_keys').where({ key: headers['Idempotency-Key'] }).first();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain('whsec_');
    expect(stored).not.toContain(secret.slice('whsec_'.length, -1));
    // The answer is kept as its very text (a replay is those bytes).
    expect((JSON.parse(row.response_body as string) as { secret: string }).secret).toMatch(/^v1\./);
  };

  it('keeps a creation’s secret sealed under its Idempotency-Key; a replay answers the first answer byte for byte', async () => {
    const headers = key('webhook-sealed');
    const first = await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body, headers });
    expect(first.body.secret).toMatch(/^whsec_/);
    await expectSealedUnder(headers, first.body.secret);

    const replay = await replayFromStorage('/v1/webhooks', headers, body);
    expect([replay.status, replay.headers['idempotent-replayed'], replay.headers.location]).toEqual([201, 'true', first.headers.location]);
    expect(replay.text).toBe(first.text);
  });

  it('keeps a rotation’s secret sealed; a replay after a later rotation still answers what the first request answered', async () => {
    const { id } = (await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body })).body;
    const path = `/v1/webhooks/${id}/secret-rotations`;
    const headers = key('rotation-sealed');
    const rotated = await ctx.api.call('post', path, { token: ctx.token, headers });
    expect(rotated.status).toBe(200);
    await expectSealedUnder(headers, rotated.body.secret);
    const later = await ctx.api.call('post', path, { token: ctx.token });
    expect(later.body.secret).not.toBe(rotated.body.secret);

    // SPEC idempotency: the key answers what it answered, even though that secret is now the previous one.
    const replay = await replayFromStorage(path, headers);
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(replay.text).toBe(rotated.text);
  });

  it('keeps a refusal kept under the key as it was answered', async () => {
    const headers = key('rotation-refused');
    const refused = await ctx.api.call('post', '/v1/webhooks/999999999/secret-rotations', { token: ctx.token, headers });
    expect(refused.status).toBe(404);
    const replay = await replayFromStorage('/v1/webhooks/999999999/secret-rotations', headers);
    expect([replay.status, replay.text]).toEqual([404, refused.text]);
  });

  it('writes no secret to the logs, at any level', async () => {
    const created = await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body, headers: key('webhook-logged') });
    const rotated = await ctx.api.call('post', `/v1/webhooks/${created.body.id}/secret-rotations`, { token: ctx.token });
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of [created.body.secret, rotated.body.secret]) {
      expect(logLines.filter((line) => line.includes(secret.slice('whsec_'.length, -1)))).toEqual([]);
    }
    expect(logLines.filter((line) => line.includes('whsec_'))).toEqual([]);
  });
});
