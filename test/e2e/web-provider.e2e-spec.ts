import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page, Request } from 'playwright-core';
import { launchChromium, seriousViolations, signIn, SHOTS } from '../support/browser';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(180_000);

interface Integration {
  state: string;
  max_cpu: number | null;
  max_snapshots?: number;
  password_set: boolean;
  counts: Record<string, number>;
}

/**
 * Installed before the portal's own scripts (through the debugger protocol, so the CSP stays as
 * served): a copy of every same-origin API answer the page reads, the event stream's bytes included
 * as they arrive, kept in `received` — what the page was told, to look for the password in.
 */
function recordAnswers(): void {
  const scope = globalThis as unknown as { received: string[]; fetch: typeof fetch };
  scope.received = [];
  const original = scope.fetch.bind(globalThis);
  scope.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await original(...args);
    const copy = response.clone();
    const index = scope.received.push('') - 1;
    void (async () => {
      if (!copy.body) return;
      const reader = copy.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        scope.received[index] += value;
      }
    })().catch(() => undefined);
    return response;
  };
}

/**
 * The provider's pages of the web portal in Chromium against the whole system on vcsim: the
 * offering's provider owner sees it with its integration state, saves one credential field on its
 * own (a refused one shows the API's message at its field), writes the password without it ever
 * reaching the page, and synchronises with the progress and counts arriving over the event stream
 * with no polling request; staff assign a network to an organisation and take it back. axe-core
 * finds no serious or critical violation; each step leaves a screenshot in test-output/web/.
 */
describe("the web portal's provider pages in Chromium, end to end", () => {
  let market: VsphereMarketplace;
  let browser: Browser;
  let page: Page;
  const requests: Request[] = [];
  const pageErrors: string[] = [];
  const passwords = {
    provider: `pw-${randomBytes(12).toString('hex')}`,
    staff: `pw-${randomBytes(12).toString('hex')}`,
  };
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const apiRequests = (from: number) =>
    requests.slice(from).filter((r) => new URL(r.url()).pathname.startsWith('/api'));
  const describeRequest = (r: Request) => `${r.method()} ${new URL(r.url()).pathname}`;
  const integration = () =>
    market.api.ok<Integration>(
      'provider',
      'GET',
      `/api/marketplace-provider-offerings/${market.offering.uuid}/integration/`,
    );

  beforeAll(async () => {
    market = await VsphereMarketplace.start('webprovider');
    await market.api.user('provider', 'staff');
    await market.api.ok(
      'staff',
      'POST',
      `/api/customers/${market.offering.customer_uuid as string}/add_user/`,
      {
        user: market.api.users.provider,
        role: 'CUSTOMER.OWNER',
      },
    );
    for (const name of ['provider', 'staff'] as const)
      await market.api.setPassword('staff', name, passwords[name]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(recordAnswers);
    page.on('request', (request) => requests.push(request));
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await market?.stop();
  });

  it("shows the provider's owner its offerings with the integration state, and the offering's page", async () => {
    await page.goto(`${market.api.base}/provider/offerings`);
    await signIn(page, 'provider', passwords.provider);
    const row = page.locator(`[data-offering="${market.offering.name}"]`);
    await row.getByText('OK', { exact: true }).waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    await shot('10-provider-offerings');
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole('link', { name: market.offering.name }).click();
    await page.getByRole('heading', { name: market.offering.name }).waitFor();
    await page.getByTestId('integration-state').getByText('OK', { exact: true }).waitFor();
    const counts = (await integration()).counts;
    expect(counts.templates).toBe(1);
    await page.locator('[data-count="templates"]').getByText(String(counts.templates)).waitFor();
    await page.getByText('A password is set.', { exact: false }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await shot('11-provider-offering');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("fits the offering's page on a phone screen: nothing wider than the screen, no serious axe finding", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByRole('heading', { name: market.offering.name }).waitFor();
      await page.getByRole('button', { name: 'Synchronise now' }).waitFor();
      // Nothing makes the page scroll sideways: the header, the counts and the credential forms wrap.
      const widths = await page.evaluate<{ page: number; screen: number }>(
        '({ page: document.documentElement.scrollWidth, screen: window.innerWidth })',
      );
      expect(widths.page).toBeLessThanOrEqual(widths.screen);
      // The project switcher sits in the header, inside the screen.
      const switcher = await page.getByLabel('Project', { exact: true }).boundingBox();
      expect(switcher).not.toBeNull();
      expect((switcher?.x ?? 0) + (switcher?.width ?? 0)).toBeLessThanOrEqual(390);
      await shot('11b-provider-offering-phone');
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("saves one credential field on its own and shows a refused one's message at its field", async () => {
    const from = requests.length;
    await page.getByLabel('Maximum vCPU per VM').fill('24');
    await page.getByRole('button', { name: 'Save Maximum vCPU per VM' }).click();
    await page.getByTestId('status-max_cpu').getByText('Saved.').waitFor();
    const saves = apiRequests(from);
    expect(saves.map(describeRequest)).toEqual([
      `POST /api/marketplace-provider-offerings/${market.offering.uuid}/update_integration/`,
    ]);
    expect(saves[0].postDataJSON()).toEqual({ service_attributes: { max_cpu: '24' } });
    expect((await integration()).max_cpu).toBe(24);
    // The snapshot limits sit with the other maximums.
    await page.getByLabel('Maximum snapshots per VM').fill('5');
    await page.getByRole('button', { name: 'Save Maximum snapshots per VM' }).click();
    await page.getByTestId('status-max_snapshots').getByText('Saved.').waitFor();
    expect((await integration()).max_snapshots).toBe(5);

    await page.getByLabel('vCenter URL').fill('http://vcenter.example.org');
    await page.getByRole('button', { name: 'Save vCenter URL' }).click();
    await page
      .locator('[data-field-error="cred-backend_url"]')
      .getByText('Enter a valid URL starting with https://.')
      .waitFor();
    await page.getByTestId('status-backend_url').getByText('Not saved.').waitFor();
    // The other fields were not touched by that refusal.
    await page.getByTestId('status-max_cpu').getByText('Saved.').waitFor();
    await shot('12-provider-credentials-refused');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('writes the password and never shows it: not in the page, nor in any answer the page received', async () => {
    const password = market.sim.password;
    const field = page.getByLabel('Password', { exact: true });
    await field.fill(password);
    await page.getByRole('button', { name: 'Save Password' }).click();
    await page.getByTestId('status-password').getByText('Saved.').waitFor();
    expect(await field.inputValue()).toBe('');
    await page.getByText('A password is set.', { exact: false }).waitFor();
    // The saved password still works: the integration stays OK.
    await page.getByTestId('integration-state').getByText('OK', { exact: true }).waitFor();
    expect((await integration()).password_set).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain(password);
    const inputs = page.locator('input, textarea');
    const values: string[] = [];
    for (let i = 0; i < (await inputs.count()); i += 1) values.push(await inputs.nth(i).inputValue());
    expect(values).not.toContain(password);
    const received = await page.evaluate(() => (globalThis as unknown as { received: string[] }).received);
    expect(received.length).toBeGreaterThan(5);
    expect(received.join('\n')).toContain('password_set');
    expect(received.join('\n')).not.toContain(password);
  });

  it('synchronises on demand: progress and counts arrive over the event stream, with no polling', async () => {
    const log = page.getByTestId('sync-log');
    // The saves above synchronised too: wait until the last of those has finished.
    // (Evaluated in the page; a string, as this project's test types have no DOM.)
    await page.waitForFunction(`(() => {
      const events = [...document.querySelectorAll('[data-testid="sync-log"] li')].map((li) => li.dataset.event);
      const count = (type) => events.filter((event) => event === type).length;
      return count('SyncStarted') > 0 && count('SyncStarted') === count('SyncFinished');
    })()`);
    await page.getByTestId('sync-state').getByText('Idle').waitFor();
    const started = await log.locator('[data-event="SyncStarted"]').count();
    const finished = await log.locator('[data-event="SyncFinished"]').count();
    const from = requests.length;

    await page.getByRole('button', { name: 'Synchronise now' }).click();
    await log.locator('[data-event="SyncStarted"]').nth(started).waitFor({ timeout: 30_000 });
    await log.locator('[data-event="SyncFinished"]').nth(finished).waitFor({ timeout: 30_000 });
    await page.getByTestId('sync-state').getByText('Idle').waitFor();
    const last = await log.locator('[data-event="SyncFinished"]').nth(finished).innerText();
    const counts = (await integration()).counts;
    expect(last).toContain(`${counts.templates} templates, ${counts.clusters} clusters`);
    expect(last).toContain(`${counts.networks} networks, ${counts.datastores} datastores`);
    for (const [kind, count] of Object.entries(counts))
      expect(await page.locator(`[data-count="${kind}"]`).innerText()).toBe(String(count));
    await shot('13-provider-sync-finished');
    // One POST; everything after it came over the page's one stream.
    expect(apiRequests(from).map(describeRequest)).toEqual([
      `POST /api/marketplace-provider-offerings/${market.offering.uuid}/sync/`,
    ]);
    expect(requests.filter((r) => new URL(r.url()).pathname === '/api/events')).toHaveLength(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("lets staff assign a network to an organisation and take it back; a provider's owner sees no assignments", async () => {
    expect(await page.getByRole('heading', { name: 'Customer assignments' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'staff', passwords.staff);
    await page.getByRole('heading', { name: market.offering.name }).waitFor();
    await page.getByLabel('Organisation').selectOption({ label: market.customer.name });
    const networks = page.getByRole('region', { name: 'Networks for new VMs' });
    await networks.getByText('None assigned: the defaults apply.').waitFor();
    await networks.getByLabel('Add to Networks for new VMs').selectOption({ label: 'DC0_DVPG0' });
    await networks.getByRole('button', { name: 'Assign to Networks for new VMs' }).click();
    await networks.locator('[data-assigned="DC0_DVPG0"]').waitFor();
    const assigned = () =>
      market.api.ok<{ object_name: string }[]>(
        'staff',
        'GET',
        `/api/vmware-customer-networks/?customer_uuid=${market.customer.uuid}&offering_uuid=${market.offering.uuid}`,
      );
    expect((await assigned()).map((a) => a.object_name)).toEqual(['DC0_DVPG0']);
    await shot('14-staff-assignments');
    expect(await seriousViolations(page)).toEqual([]);
    await networks.getByRole('button', { name: 'Remove DC0_DVPG0 from Networks for new VMs' }).click();
    await networks.getByText('None assigned: the defaults apply.').waitFor();
    expect(await assigned()).toEqual([]);
    // Nothing the pages were sent made them throw.
    expect(pageErrors).toEqual([]);
  });
});
