import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';

/** Debian's Chromium: playwright's own browser downloads are not reachable from every machine that runs the tests. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined when they can. */
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `needs Chromium at ${CHROMIUM}, which is missing here: apt-get install -y chromium`;

// No network of its own (updates, sync, QUIC probes): the only requests are the page's, to the service under test.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Visit {
  readonly page: Page;
  /** Every URL the page asked for, in order, including those the browser then refused to fetch. */
  readonly requested: readonly string[];
  /** The URLs the browser refused to fetch under the page's Content-Security-Policy. */
  readonly refused: readonly string[];
  close(): Promise<void>;
}

/** Opens `url` in headless Chromium with a fresh profile, recording what the page requests. */
export async function visitInChromium(url: string): Promise<Visit> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'rcs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const requested: string[] = [];
  const refused: string[] = [];
  context.on('request', (request) => requested.push(request.url()));
  context.on('requestfailed', (request) => {
    if (request.failure()?.errorText === 'csp') refused.push(request.url());
  });
  const close = async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  };
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { page, requested, refused, close };
}
