/**
 * The web portal's production bundle and how fast its order page is usable:
 * - the JavaScript the first page loads (the entry script of `dist/web/index.html` and the modules
 *   it preloads), gzipped at level 9 as a server would send it, against the 250 KB budget;
 *   the CSS likewise;
 * - the order page in headless Chromium (Debian's, driven by playwright-core) against the whole
 *   system on vcsim served by the gateway: from navigation start to the form being interactive
 *   (its template list filled from the API, the Order button enabled), 10 cold loads in fresh
 *   browser contexts (no cache), and the same to the server's first dry-run verdict.
 *
 * `npm run bench -- web` (needs `npm run build`); the last line is one JSON object.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { VsphereMarketplace } from '../test/support/vsphere-marketplace';
import { ascending, percentile } from './support/stats';
import { size } from './support/quick';

const WEB_DIR = join(__dirname, '..', 'dist', 'web');
const CHROMIUM = '/usr/bin/chromium';
const LOADS = size(10, 2);
const BUDGET_BYTES = 250 * 1024;

function gzipped(file: string): number {
  return gzipSync(readFileSync(join(WEB_DIR, file)), { level: 9 }).length;
}

/** The scripts and styles `index.html` loads before anything else. */
function firstPage(): { scripts: string[]; styles: string[] } {
  const html = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
  const attr = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1].replace(/^\//, ''));
  return {
    scripts: [
      ...attr(/<script[^>]+src="([^"]+)"/g),
      ...attr(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ],
    styles: attr(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g),
  };
}

async function main(): Promise<void> {
  const { scripts, styles } = firstPage();
  const allScripts = readdirSync(join(WEB_DIR, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  const bundle = {
    first_page_js_gzip_bytes: scripts.reduce((sum, f) => sum + gzipped(f), 0),
    first_page_js_raw_bytes: scripts.reduce((sum, f) => sum + readFileSync(join(WEB_DIR, f)).length, 0),
    all_js_gzip_bytes: allScripts.reduce((sum, f) => sum + gzipped(f), 0),
    first_page_css_gzip_bytes: styles.reduce((sum, f) => sum + gzipped(f), 0),
    budget_js_gzip_bytes: BUDGET_BYTES,
  };
  console.log(`first page: ${scripts.join(', ')}; ${bundle.first_page_js_gzip_bytes} B of JS gzipped`);

  const market = await VsphereMarketplace.start('benchweb');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const password = `pw-${randomBytes(12).toString('hex')}`;
    await market.api.ok('staff', 'POST', `/api/users/${market.api.users.member}/change_password/`, {
      new_password: password,
    });
    const { token } = await market.api.ok<{ token: string }>('member', 'POST', '/api-auth/password/', {
      username: 'member',
      password,
    });
    const interactive: number[] = [];
    const verdict: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext();
      // The tab's session, as after signing in: the token in sessionStorage before the app starts.
      await context.addInitScript((value) => sessionStorage.setItem('vmm.token', value), token);
      const page = await context.newPage();
      await page.goto(`${market.api.base}/order/${market.offering.uuid}`, { waitUntil: 'commit' });
      await page.locator('#template option').first().waitFor({ state: 'attached' });
      await page.getByRole('button', { name: 'Order', exact: true }).waitFor();
      interactive.push(await page.evaluate(() => performance.now()));
      await page
        .getByTestId('dry-run')
        .filter({ hasText: /accepts|refuse/ })
        .waitFor();
      verdict.push(await page.evaluate(() => performance.now()));
      await context.close();
    }
    const figures = {
      ...bundle,
      order_page_interactive_p50_ms: Math.round(percentile(ascending(interactive), 50)),
      order_page_interactive_max_ms: Math.round(Math.max(...interactive)),
      order_page_first_dry_run_p50_ms: Math.round(percentile(ascending(verdict), 50)),
      loads: LOADS,
    };
    console.log(JSON.stringify(figures));
  } finally {
    await browser.close();
    await market.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
