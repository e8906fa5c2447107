import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page, Request, Route } from 'playwright-core';
import type { Json } from '../support/api-session';
import { launchChromium, seriousViolations, signIn, SHOTS } from '../support/browser';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(180_000);

type Named = Json & { uuid: string; name: string };

/** A slow mobile link, as Chromium's debugger protocol emulates it: 400 ms each way, 50 KB/s. */
const SLOW_LINK = {
  offline: false,
  latency: 400,
  downloadThroughput: 50 * 1024,
  uploadThroughput: 50 * 1024,
};

/**
 * Answers of the requests `match` picks, held back until the test lets each through: the server has
 * answered (fetched at once), the page has not heard yet. Makes "late" and "out of order" exact
 * instead of a matter of timing.
 */
class HeldAnswers {
  private readonly held: (() => void)[] = [];

  private constructor(
    private readonly page: Page,
    private readonly match: (url: URL) => boolean,
  ) {}

  static async on(page: Page, match: (url: URL) => boolean): Promise<HeldAnswers> {
    const answers = new HeldAnswers(page, match);
    await page.route(match, (route) => answers.hold(route));
    return answers;
  }

  private async hold(route: Route): Promise<void> {
    const answer = await route.fetch();
    await new Promise<void>((release) => this.held.push(release));
    // The page may have given up on it meanwhile (an aborted dry run): nothing left to answer.
    await route.fulfill({ response: answer }).catch(() => undefined);
  }

  /** Waits until `count` requests have reached the hold. */
  async arrived(count: number): Promise<void> {
    for (const deadline = Date.now() + 20_000; this.held.length < count; await sleep(50))
      if (Date.now() > deadline) throw new Error(`${this.held.length} of ${count} requests arrived`);
  }

  release(index: number): void {
    this.held[index]();
  }

  async stop(): Promise<void> {
    this.held.forEach((release) => release());
    await this.page.unroute(this.match);
  }
}

/**
 * The web portal in Chromium on a throttled link (400 ms latency, 50 KB/s) against the whole
 * system on vcsim: while a list's first answer is on its way the page says it is loading instead of
 * "nothing here"; a dry-run answer to an older input, arriving late, never replaces what the newest
 * input gets; a double click and Enter pressed twice each make exactly one order (and the order's
Idempotency-Key, sent again, answers that order); a power action's
 * button shows it is busy and sends one request however often it is clicked.
 */
describe('the web portal on a slow network, in Chromium', () => {
  let market: VsphereMarketplace;
  let browser: Browser;
  let page: Page;
  let folder: Named;
  const requests: Request[] = [];
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const isOrders = (url: URL) => url.pathname === '/api/marketplace-orders/';
  const ordersNamed = async (name: string) =>
    (
      await market.api.ok<{ resource_name: string }[]>(
        'member',
        'GET',
        `/api/marketplace-orders/?project_uuid=${market.project.uuid}&page_size=200`,
      )
    ).filter((order) => order.resource_name === name);
  const dryRunVerdict = () => page.getByTestId('dry-run');

  beforeAll(async () => {
    market = await VsphereMarketplace.start('webslow');
    ({ folder } = await market.vmPlacement());
    await market.api.setPassword('staff', 'member', password);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => requests.push(request));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);
  });

  afterAll(async () => {
    await browser?.close();
    await market?.stop();
  });

  it('says it is loading, not that a list is empty, while the first answer is on its way', async () => {
    const orders = await HeldAnswers.on(page, (url) => isOrders(url) && url.searchParams.has('project_uuid'));
    await page.goto(`${market.api.base}/orders`);
    await signIn(page, 'member', password);
    await orders.arrived(1);
    await page.getByRole('status').getByText('Loading the orders…').waitFor();
    expect(await page.getByText('No orders in this project yet.').count()).toBe(0);
    await shot('20-slow-orders-loading');
    await orders.stop();
    await page.getByText('No orders in this project yet.').waitFor();
    expect(await page.getByText('Loading the orders…').count()).toBe(0);

    const review = await HeldAnswers.on(page, (url) => isOrders(url) && url.searchParams.has('state'));
    await page.getByRole('link', { name: 'Provider orders' }).click();
    await review.arrived(1);
    await page.getByRole('status').getByText('Loading the orders…').waitFor();
    expect(await page.getByText('No order waits for your review.').count()).toBe(0);
    await review.stop();
    await page.getByText('No order waits for your review.').waitFor();
  });

  it("never shows a dry run's late answer to an older input: the newest input's answer stands", async () => {
    await page.getByRole('link', { name: 'Catalogue' }).click();
    await page.getByRole('link', { name: `Order ${market.offering.name}` }).click();
    await page.getByLabel('Name', { exact: true }).fill('slow-vm-1');
    await page.getByLabel('vCPU').fill('2');
    await page.getByLabel('RAM (MiB)').fill('2048');
    await page.getByLabel('Folder').selectOption(folder.uuid);
    await page.getByLabel('DC0_DVPG0').check();
    await dryRunVerdict().getByText('The server accepts this order.').waitFor({ timeout: 20_000 });

    const dryRuns = await HeldAnswers.on(page, (url) => isOrders(url) && url.searchParams.has('dry_run'));
    await page.getByLabel('Description').fill('ordered on a slow link');
    await dryRuns.arrived(1);
    // From the next keystroke on, every text the verdict shows is recorded.
    await page.evaluate(`(() => {
      const verdict = document.querySelector('[data-testid="dry-run"]');
      globalThis.verdicts = [];
      new MutationObserver(() => globalThis.verdicts.push(verdict.textContent)).observe(verdict, {
        childList: true, characterData: true, subtree: true,
      });
    })()`);
    await page.getByLabel('vCPU').fill('0');
    // The answer to the description's change (accepted) lands now, after the input became 0 vCPU.
    dryRuns.release(0);
    await dryRuns.arrived(2);
    dryRuns.release(1);
    await dryRunVerdict().getByText('The server would refuse this order as it stands.').waitFor();
    await sleep(1_000);
    const verdicts = await page.evaluate<string[]>('globalThis.verdicts');
    expect(verdicts).not.toContain('The server accepts this order.');
    expect(await dryRunVerdict().innerText()).toBe('The server would refuse this order as it stands.');
    await dryRuns.stop();
    await shot('21-slow-dry-run-newest-wins');
  });

  it('makes exactly one order from a double click on Order', async () => {
    await page.getByLabel('vCPU').fill('2');
    await dryRunVerdict().getByText('The server accepts this order.').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Order', exact: true }).dblclick();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/, { timeout: 20_000 });
    await page.getByTestId('order-state').getByText('done', { exact: true }).waitFor({ timeout: 90_000 });
    expect(await ordersNamed('slow-vm-1')).toHaveLength(1);
    const submits = requests.filter((r) => {
      const url = new URL(r.url());
      return r.method() === 'POST' && isOrders(url) && !url.searchParams.has('dry_run');
    });
    expect(submits).toHaveLength(1);

    // The POST carried the form's Idempotency-Key: sent again, as after a lost answer, it answers
    // the order it made, not a second one.
    const key = (await submits[0].allHeaders())['idempotency-key'];
    expect(key).toMatch(/^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
    const again = await fetch(submits[0].url(), {
      method: 'POST',
      headers: {
        Authorization: `Token ${market.api.tokens.member}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': key,
      },
      body: submits[0].postData() ?? '',
    });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { uuid: string }).uuid).toBe(
      new URL(page.url()).pathname.split('/').pop(),
    );
    expect(await ordersNamed('slow-vm-1')).toHaveLength(1);
  });

  it('makes exactly one order from Enter pressed twice', async () => {
    // A Basic offering: its order waits for the provider, nothing is deployed.
    const basic = await market.api.ok<Named>('staff', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'Slow consulting',
      type: 'Marketplace.Basic',
      customer: market.customer.uuid,
    });
    await market.api.ok('staff', 'POST', `/api/marketplace-provider-offerings/${basic.uuid}/activate/`);
    await page.goto(`${market.api.base}/order/${basic.uuid}`);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('slow-audit');
    await name.press('Enter');
    await name.press('Enter');
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/, { timeout: 20_000 });
    await page.getByTestId('order-state').waitFor();
    expect(await ordersNamed('slow-audit')).toHaveLength(1);
  });

  it('shows a power action busy while it is sent, and sends it once however often it is clicked', async () => {
    const order = (await ordersNamed('slow-vm-1'))[0] as unknown as { uuid: string };
    await page.goto(`${market.api.base}/orders/${order.uuid}`);
    await page.getByRole('link', { name: 'Open the virtual machine' }).click();
    await page.getByTestId('runtime-state').getByText('POWERED_ON').waitFor({ timeout: 20_000 });
    const stops = await HeldAnswers.on(page, (url) => url.pathname.endsWith('/stop/'));
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    await stop.dblclick();
    await stops.arrived(1);
    expect(await stop.isDisabled()).toBe(true);
    expect(await stop.getAttribute('aria-busy')).toBe('true');
    await page.getByTestId('operation').getByText('Stop: sending…').waitFor();
    await shot('22-slow-vm-stop-sending');
    expect(await seriousViolations(page)).toEqual([]);
    // A third click while the answer is still held: the button takes none.
    await stop.click({ force: true, timeout: 2_000 }).catch(() => undefined);
    stops.release(0);
    await page.getByTestId('runtime-state').getByText('POWERED_OFF').waitFor({ timeout: 60_000 });
    await stops.stop();
    const sent = requests.filter(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/stop/'),
    );
    expect(sent).toHaveLength(1);
  });
});
