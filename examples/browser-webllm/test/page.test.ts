// End to end: the built page in headless Chromium (Debian's, through playwright-core). On a machine
// without WebGPU the on-device tier is skipped with its reason and trim completes the compaction; with
// the stand-in engine the on-device tier itself folds the span, with progress on the page.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const chromiumPath = '/usr/bin/chromium';
const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const output = join(root, 'test-output');
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

if (!existsSync(chromiumPath)) console.log(`skipped: no Chromium at ${chromiumPath} (apt-get install -y chromium; .ci/run installs it)`);

describe.skipIf(!existsSync(chromiumPath))('the browser-webllm page in headless Chromium', () => {
  let server: Server | undefined;
  let browser: Browser | undefined;
  let origin: string;

  beforeAll(async () => {
    if (!existsSync(join(dist, 'index.html'))) throw new Error(`no build at ${dist}: run vite build first (the test script does)`);
    const listening = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = join(dist, path === '/' ? 'index.html' : path);
      if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    mkdirSync(output, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    // With no build, beforeAll threw before the server existed: there is nothing to close (and waiting for a callback that never comes hung the run).
    if (server) await new Promise((resolve) => server!.close(resolve));
  });

  /** Opens the page with an engine and waits for the report; fails on any page error. */
  async function run(engine: 'webllm' | 'double'): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width: 1100, height: 1200 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/?engine=${engine}`);
    await page.waitForSelector('#status[data-state="done"], #status[data-state="error"]', { timeout: 45_000 });
    expect(errors).toEqual([]);
    expect(await page.getAttribute('#status', 'data-state'), (await page.textContent('#status')) ?? '').toBe('done');
    return page;
  }

  const row = async (page: Page, tier: string) => {
    const cells = await page.locator(`#tiers tr[data-tier="${tier}"] td`).allTextContents();
    return cells.length === 0 ? undefined : { status: cells[1], reason: cells[4] };
  };

  it('without WebGPU: the on-device tier is skipped with its reason, and trim completes the compaction', async () => {
    const page = await run('webllm');
    const webllm = await row(page, 'webllm');
    expect(webllm?.status).toBe('skipped');
    expect(webllm?.reason).toMatch(/^on-device model unavailable: (no WebGPU here|no WebGPU adapter|only a software WebGPU adapter)/);
    expect((await row(page, 'trim'))?.status).toBe('applied');
    const after = Number(await page.getAttribute('#status', 'data-after'));
    expect(after).toBeLessThanOrEqual(Number(await page.getAttribute('#status', 'data-target')));
    expect(await page.textContent('#device')).toMatch(/^Engine: WebLLM\. WebGPU is not available here: /);
    await page.screenshot({ path: join(output, 'webllm-skipped.png'), fullPage: true });
  });

  it('with the stand-in engine: the on-device tier folds the span in chunks, with progress shown', async () => {
    const page = await run('double');
    const webllm = await row(page, 'webllm');
    expect(webllm?.status).toBe('applied');
    expect(webllm?.reason).toMatch(/into a [\d,]+-token on-device summary in \d+ calls \(\d+ chunks\)/);
    expect(await row(page, 'trim')).toBeUndefined();
    const log = await page.locator('#events li').allTextContents();
    expect(log.filter((line) => /^webllm: summarized \d+ of \d+/.test(line)).length).toBeGreaterThan(3);
    expect(await page.getAttribute('#progress', 'value')).toBe('1');
    expect(await page.textContent('#summary')).toMatch(/^\[ctxkit summary of 150 earlier messages, written on this device/);
    await page.screenshot({ path: join(output, 'webllm-double.png'), fullPage: true });
  });
});
