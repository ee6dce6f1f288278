/**
 * The docs page in a real browser: headless Chromium (the system's, driven by playwright-core)
 * loads /docs from the live service, which must list every operation of the document, and
 * "Try it out" must reach the service and show its answer.
 *
 * Needs a `chromium` on PATH (Debian: `apt-get install chromium`); CI installs it. Without one
 * the test is skipped locally and fails under CI.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './server.js';

function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const executablePath = findChromium();
if (executablePath === undefined && process.env['CI'] !== undefined) {
  throw new Error('CI needs a chromium on PATH for the docs page test (apt-get install chromium)');
}
if (executablePath === undefined) {
  console.warn('users-api: skipping the docs page test because no chromium is on PATH (Debian: sudo apt-get install chromium; macOS: brew install --cask chromium)');
}

describe.skipIf(executablePath === undefined)('the docs page in headless Chromium', () => {
  const stop = new AbortController();
  let done: Promise<void> = Promise.resolve();
  let baseURL = '';
  let browser: Browser | undefined;

  beforeAll(async () => {
    const started = await startServer('127.0.0.1:0', stop.signal, randomBytes(32).toString('hex'));
    baseURL = `http://${started.address.host}:${started.address.port}`;
    done = started.done;
    browser = await chromium.launch({ executablePath: executablePath ?? 'chromium', args: ['--headless', '--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    stop.abort();
    await done;
  });

  it('lists every operation of the document, and "Try it out" reaches the live server', async () => {
    const doc = (await (await fetch(`${baseURL}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(expected).toHaveLength(8);

    const page = await (browser as Browser).newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${baseURL}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const listed = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent ?? ''} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`),
    );
    expect(listed.sort()).toEqual(expected);

    // Try it out: GET /users, answered by the live service (an empty page of users).
    const list = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path[data-path="/users"]') });
    await list.locator('.opblock-summary-control').click();
    await list.locator('.try-out__btn').click();
    await list.locator('.execute').click();
    const status = list.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await list.locator('.live-responses-table tbody .response-col_description').first().textContent()).toContain('"items"');
    expect(await list.locator('.request-url pre').textContent()).toBe(`${baseURL}/users?limit=20&offset=0`);
    expect(failed).toEqual([]);
  }, 60_000);
});
