import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { itUnless } from '@rcs/adapters-postgres/testing';
import { chromiumMissing, visitInChromium } from '../support/chromium';
import { activeAccount } from '../support/fixtures';
import { SANDBOX, useTestApi } from '../support/test-api';

/** GET /sandbox: SPEC's web panel to simulate a collection, and CONTRACT's operational page. */
describe('the sandbox page, GET /sandbox', () => {
  const ctx = useTestApi();

  it('answers an HTML page without a token, allowing scripts from the service alone and no framing', async () => {
    const res = await request(ctx.api.http).get('/sandbox');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const policy = res.headers['content-security-policy'] ?? '';
    expect(policy).toMatch(/(^|;\s*)default-src 'self'(;|$)/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).not.toMatch(/script-src|https?:|\*/);
    for (const [, reference] of res.text.matchAll(/\b(?:src|href)="([^"]*)"/g)) {
      expect({ reference, status: (await request(ctx.api.http).get(reference)).status }).toEqual({ reference, status: 200 });
    }
  });

  describe('used in headless Chromium', () => {
    const itInChromium = itUnless(chromiumMissing);
    let server: Server;
    let origin: string;
    beforeAll(async () => {
      server = ctx.api.http.listen(0, '127.0.0.1');
      await once(server, 'listening');
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    });

    itInChromium("signs in, records a collection on the caller's account, and runs the settlement", async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const visit = await visitInChromium(`${origin}/sandbox`);
      try {
        const { page } = visit;
        await page.getByLabel('Client id').fill(SANDBOX.clientId);
        await page.getByLabel('Client secret').fill(SANDBOX.clientSecret);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByLabel('Receivable account').selectOption(String(account.id));
        await page.getByLabel('Amount (ARS)').fill('1234.56');
        await page.getByLabel("Payer's name").fill('Pagador SA');
        await page.getByLabel("Payer's tax id (CUIT or CUIL)").fill('30712345671');
        await page.getByRole('button', { name: 'Simulate collection' }).click();
        await page.getByText(`Collected 1234.56 ARS on account ${account.id}`).waitFor({ timeout: 10_000 });
        await page.getByRole('button', { name: 'Run settlement' }).click();
        await page.getByText(/^Settlement run: [1-9]\d* settlements/).waitFor({ timeout: 10_000 });
        expect(visit.refused).toEqual([]);
      } finally {
        await visit.close();
      }
      const movements = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}/movements`, { token: ctx.token });
      expect(movements.body.map((m: { subtype: string | null; amount: number }) => [m.subtype, m.amount])).toEqual([
        ['SETTLEMENT_OUT', 1234.56],
        [null, 1234.56],
      ]);
    });

    itInChromium('shows a refusal as the Problem JSON code and detail, not a broken page', async () => {
      const visit = await visitInChromium(`${origin}/sandbox`);
      try {
        const { page } = visit;
        await page.getByLabel('Client id').fill(SANDBOX.clientId);
        await page.getByLabel('Client secret').fill('not the secret');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText(/^401 invalid-credentials: /).waitFor({ timeout: 10_000 });
        expect(await page.locator('#panel').isHidden()).toBe(true);
      } finally {
        await visit.close();
      }
    });
  });
});
