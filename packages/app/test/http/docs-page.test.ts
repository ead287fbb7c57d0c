import { once } from 'node:events';
import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { openApiDocument } from '@rcs/adapters-http';
import { itUnless } from '@rcs/adapters-postgres/testing';
import { chromiumMissing, visitInChromium, type Visit } from '../support/chromium';
import { useTestApi } from '../support/test-api';

/** Kept after the run for a person to look at (gitignored). */
const ARTIFACTS = path.join(__dirname, '..', '..', '..', '..', 'test-artifacts');

/** Every operation's summary in the served document, each once. */
function operationSummaries(): string[] {
  const summaries = new Set<string>();
  for (const operations of Object.values(openApiDocument.paths as Record<string, Record<string, { summary?: string }>>)) {
    for (const operation of Object.values(operations)) if (operation.summary) summaries.add(operation.summary);
  }
  return [...summaries];
}

describe('the reference page, GET /docs', () => {
  const ctx = useTestApi();

  it('answers 200 with an HTML page, without a token', async () => {
    const res = await request(ctx.api.http).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('references only assets the service serves itself, each answering 200', async () => {
    const html = (await request(ctx.api.http).get('/docs')).text;
    const references = [...html.matchAll(/\b(?:src|href|spec-url)="([^"]*)"/g)].map((match) => match[1]);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) {
      expect(reference).toMatch(/^\/(?!\/)/);
      expect({ reference, status: (await request(ctx.api.http).get(reference)).status }).toEqual({ reference, status: 200 });
    }
  });

  it('forbids the page to load anything from elsewhere (Content-Security-Policy)', async () => {
    const res = await request(ctx.api.http).get('/docs');
    const policy = res.headers['content-security-policy'] ?? '';
    expect(policy).toMatch(/(^|;\s*)default-src 'self'(;|$)/);
    expect(policy).not.toMatch(/https?:|\*/);
  });

  it('serves the renderer as JavaScript from the installed package', async () => {
    const res = await request(ctx.api.http).get('/docs/assets/redoc.standalone.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(Number(res.headers['content-length'])).toBe(statSync(require.resolve('redoc/bundles/redoc.standalone.js')).size);
  });

  it('answers another method on /docs with 405 method-not-allowed', async () => {
    const res = await request(ctx.api.http).post('/docs');
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('method-not-allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  describe('rendered in headless Chromium', () => {
    const itInChromium = itUnless(chromiumMissing);
    const summaries = operationSummaries();
    let server: Server;
    let origin: string;
    let opened: Promise<Visit> | undefined;
    let rendering: Promise<Visit> | undefined;
    /** The page, opened once for the tests that look at it (only by a test that runs), and rendered. */
    const rendered = () =>
      (rendering ??= (opened = visitInChromium(`${origin}/docs`)).then(async (visit) => {
        // The heading of the document's last operation: once it shows, the page has rendered them all.
        await visit.page
          .getByRole('heading', { name: summaries[summaries.length - 1] })
          .first()
          .waitFor({ timeout: 20_000 });
        await visit.page.waitForLoadState('networkidle');
        return visit;
      }));

    beforeAll(async () => {
      server = ctx.api.http.listen(0, '127.0.0.1');
      await once(server, 'listening');
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      // Closed even when the page never rendered: a browser left running keeps jest from exiting.
      await (await opened)?.close();
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    });

    itInChromium('lists every operation of the served document by its summary, and keeps a screenshot', async () => {
      const { page } = await rendered();
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'docs-page.png') });
      const text = await page.locator('body').innerText();
      expect(summaries.length).toBeGreaterThan(40);
      expect(summaries.filter((summary) => !text.includes(summary))).toEqual([]);
    });

    itInChromium('fetches nothing from outside the service, so it renders offline', async () => {
      const { requested, refused } = await rendered();
      expect(requested).toContain(`${origin}/v1/openapi.json`);
      const fetchedElsewhere = requested.filter((url) => /^(https?|wss?):/.test(url) && new URL(url).origin !== origin && !refused.includes(url));
      expect(fetchedElsewhere).toEqual([]);
    });
  });
});
