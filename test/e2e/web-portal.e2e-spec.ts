import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page, Request } from 'playwright-core';
import type { Json } from '../support/api-session';
import { launchChromium, seriousViolations, SHOTS } from '../support/browser';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Named = Json & { uuid: string; name: string };

/**
 * The web portal in a real browser (Debian's Chromium driven by playwright-core) against the whole
 * system on vcsim, served by the gateway: a member signs in with a password, orders a VM through the
 * form (a disallowed network is flagged by the dry run next to its field before submitting), sees
 * the order reach done live over the one SSE stream with no reload and no polling request, stops the
 * VM and sees POWERED_OFF arrive, and terminates it. Every page passes axe-core without serious or
 * critical violations; each step leaves a screenshot in test-output/web/.
 */
describe('the web portal in Chromium, end to end', () => {
  let market: VsphereMarketplace;
  let browser: Browser;
  let page: Page;
  let dvpg: Named;
  let vmNetwork: Named;
  let folder: Named;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const requests: Request[] = [];
  let orderUuid = '';
  let vmUuid = '';
  const outsiderPassword = `pw-${randomBytes(12).toString('hex')}`;

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    market = await VsphereMarketplace.start('webportal');
    const networks = await market.inventory('vmware-networks');
    dvpg = networks.find((n) => n.name === 'DC0_DVPG0') as Named;
    vmNetwork = networks.find((n) => n.name === 'VM Network') as Named;
    folder = (await market.inventory('vmware-folders'))[0];
    await market.assign('networks', dvpg.uuid);
    await market.assign('networks', vmNetwork.uuid);
    await market.assign('folders', folder.uuid);
    // Adapters added to existing VMs go on networks assigned for that use only.
    await market.api.ok('staff', 'POST', '/api/vmware-customer-network-pairs/', {
      customer: market.customer.uuid,
      network: vmNetwork.uuid,
    });
    await market.api.setPassword('staff', 'member', password);
    // Another organisation, with a project of its own and an owner who signs in too.
    const other = await market.api.ok<Named>('staff', 'POST', '/api/customers/', { name: 'Other org' });
    await market.api.ok('staff', 'POST', '/api/projects/', {
      name: 'Other project',
      customer: other.uuid,
    });
    await market.api.user('outsider', 'staff');
    await market.api.ok('staff', 'POST', `/api/customers/${other.uuid}/add_user/`, {
      user: market.api.users.outsider,
      role: 'CUSTOMER.OWNER',
    });
    await market.api.setPassword('staff', 'outsider', outsiderPassword);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => requests.push(request));
  });

  afterAll(async () => {
    await browser?.close();
    await market?.stop();
  });

  // The VM page's usage charts ask for their samples on a timer of their own (every 20 s, vCenter's
  // real-time interval): those GETs are not a step's requests.
  const apiRequests = (from = 0) =>
    requests.slice(from).filter((r) => {
      const path = new URL(r.url()).pathname;
      return path.startsWith('/api') && !/^\/api\/vmware-virtual-machine\/[^/]+\/stats\/$/.test(path);
    });
  const describeRequest = (r: Request) =>
    `${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`;

  it('signs in with a username and password and shows the catalogue', async () => {
    await page.goto(`${market.api.base}/`);
    await page.getByLabel('Username').fill('member');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Offerings' }).waitFor();
    await page.getByText(market.offering.name).first().waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toContain('vmm.token');
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    await shot('01-catalogue');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('flags a network the organisation may not use next to its field before submitting', async () => {
    await page.getByRole('link', { name: `Order ${market.offering.name}` }).click();
    await page.getByRole('heading', { name: `Order ${market.offering.name}` }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('web-vm-1');
    await page.getByLabel('vCPU').fill('2');
    await page.getByLabel('RAM (MiB)').fill('2048');
    await page.getByLabel('Folder').selectOption(folder.uuid);
    await page.getByLabel('DC0_DVPG0').check();
    // The dry run accepts it: an estimate appears.
    await page.getByTestId('dry-run').getByText('The server accepts this order.').waitFor();
    // Staff take DC0_DVPG0 back while the form is open; the next dry run says so at the field.
    await market.api.ok('staff', 'POST', '/api/vmware-customer-networks/remove/', {
      customer: market.customer.uuid,
      network: dvpg.uuid,
    });
    await page.getByLabel('Description').fill('ordered in the browser');
    const networkError = page.locator('[data-field-error="networks"]');
    await networkError.getByText('This network is not available for this customer.').waitFor();
    await shot('02-order-form-network-refused');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('DC0_DVPG0').uncheck();
    await page.getByLabel('VM Network').check();
    await networkError.waitFor({ state: 'detached' });
    await page.getByTestId('dry-run').getByText('The server accepts this order.').waitFor();
    expect(await page.locator('[data-field-error]').count()).toBe(0);
  });

  it('submits, and the order reaches done live: no reload, no polling, one event stream', async () => {
    await page.evaluate(() => ((globalThis as unknown as { loadedOnce: boolean }).loadedOnce = true));
    const from = requests.length;
    await page.getByRole('button', { name: 'Order', exact: true }).click();
    await page.waitForURL(/\/orders\/[0-9a-f-]{36}$/);
    orderUuid = page.url().split('/').pop() as string;
    await page.getByTestId('order-state').getByText('done', { exact: true }).waitFor({ timeout: 180_000 });
    await shot('03-order-done');
    expect(await page.evaluate(() => (globalThis as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(
      true,
    );
    // After the submit: the POST and the order page's one GET; the changes came over the stream.
    expect(apiRequests(from).map(describeRequest)).toEqual([
      'POST /api/marketplace-orders/',
      `GET /api/marketplace-orders/${orderUuid}/`,
    ]);
    expect(requests.filter((r) => new URL(r.url()).pathname === '/api/events')).toHaveLength(1);
    expect(requests.filter((r) => r.isNavigationRequest())).toHaveLength(1);
    expect(await page.locator('.timeline li').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('executing'), expect.stringContaining('done')]),
    );
    const order = await market.api.ok<Json>('member', 'GET', `/api/marketplace-orders/${orderUuid}/`);
    expect(order.state).toBe('done');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('stops the VM from its page and sees POWERED_OFF arrive', async () => {
    await page.getByRole('link', { name: 'Open the virtual machine' }).click();
    await page.getByTestId('runtime-state').getByText('POWERED_ON').waitFor();
    vmUuid = page.url().split('/').pop() as string;
    // The networks an adapter may go on load with the page: let that GET land before counting.
    await page.getByRole('option', { name: 'VM Network' }).waitFor({ state: 'attached' });
    // So do the end date and whether this user may change it (the owner may).
    await page.getByRole('button', { name: 'Set end date', exact: true }).waitFor();
    await shot('04-vm-powered-on');
    expect(await seriousViolations(page)).toEqual([]);
    const from = requests.length;
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('runtime-state').getByText('POWERED_OFF').waitFor({ timeout: 60_000 });
    await shot('05-vm-powered-off');
    expect(apiRequests(from).map(describeRequest)).toEqual([
      expect.stringMatching(/^POST \/api\/vmware-virtual-machine\/[^/]+\/stop\/$/),
    ]);
  });

  it('resizes the powered-off VM and sees the new RAM arrive', async () => {
    const from = requests.length;
    await page.getByLabel('RAM (MiB)').fill('4096');
    await page.getByRole('button', { name: 'Resize', exact: true }).click();
    await page.locator('.details dd').getByText('4096 MiB', { exact: true }).waitFor({ timeout: 60_000 });
    expect(apiRequests(from).map(describeRequest)).toEqual([
      expect.stringMatching(/^PATCH \/api\/vmware-virtual-machine\/[^/]+\/$/),
    ]);
    const vm = await market.api.ok<Json>('member', 'GET', `/api/vmware-virtual-machine/${vmUuid}/`);
    expect(vm.ram).toBe(4096);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('adds, extends and deletes a disk and an adapter, each result arriving live; a refusal stays at its field', async () => {
    const from = requests.length;
    // The VM's disks (uuid and size) and adapters, as REST shows them.
    const devicesOf = async () => {
      const vm = await market.api.ok<{ disks: { uuid: string; size: number }[]; ports: Named[] }>(
        'member',
        'GET',
        `/api/vmware-virtual-machine/${vmUuid}/`,
      );
      return { disks: vm.disks.map((d) => `${d.uuid} ${d.size}`), ports: vm.ports.map((p) => p.uuid) };
    };
    const own = await devicesOf();
    const disks = page.getByRole('region', { name: 'Disks' }).locator('li.device');
    const adapters = page.getByRole('region', { name: 'Network adapters' }).locator('li.device');
    const disksBefore = await disks.count();
    const adaptersBefore = await adapters.count();
    const ok = (item: ReturnType<Page['locator']>) => item.locator('.badge').getByText('OK', { exact: true });

    // Half a GiB is under the 1024 MiB minimum: the server's message appears under the size field.
    await page.getByLabel('New disk size (GiB)').fill('0.5');
    await page.getByRole('button', { name: 'Add disk', exact: true }).click();
    await page.locator('[data-field-error="new-disk-size"]').waitFor();
    expect(await page.getByLabel('New disk size (GiB)').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('New disk size (GiB)').fill('2');
    await page.getByRole('button', { name: 'Add disk', exact: true }).click();
    const newDisk = disks.nth(disksBefore);
    await newDisk.locator('p', { hasText: '(2048 MiB)' }).waitFor({ timeout: 60_000 });
    await ok(newDisk).waitFor({ timeout: 60_000 });
    const label = `disk ${disksBefore + 1}`;
    await page.getByLabel(`New size of ${label} (GiB)`).fill('3');
    await page.getByRole('button', { name: `Extend ${label}`, exact: true }).click();
    await newDisk.locator('p', { hasText: '(3072 MiB)' }).waitFor({ timeout: 60_000 });
    await ok(newDisk).waitFor({ timeout: 60_000 });
    await shot('05c-vm-disk-extended');
    await page.getByRole('button', { name: `Delete ${label}`, exact: true }).click();
    await newDisk.waitFor({ state: 'detached', timeout: 60_000 });
    expect(await disks.count()).toBe(disksBefore);

    await page.getByLabel('Network for a new adapter').selectOption({ label: 'VM Network' });
    await page.getByRole('button', { name: 'Add adapter', exact: true }).click();
    const newAdapter = adapters.nth(adaptersBefore);
    await ok(newAdapter).waitFor({ timeout: 60_000 });
    expect(await newAdapter.innerText()).toContain('VM Network');
    await shot('05d-vm-adapter-added');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: `Delete adapter ${adaptersBefore + 1}`, exact: true }).click();
    await newAdapter.waitFor({ state: 'detached', timeout: 60_000 });

    // Every result came over the event stream: the page asked nothing but the changes themselves.
    expect(apiRequests(from).map(describeRequest)).toEqual([
      expect.stringMatching(/^POST \/api\/vmware-virtual-machine\/[^/]+\/create_disk\/$/),
      expect.stringMatching(/^POST \/api\/vmware-virtual-machine\/[^/]+\/create_disk\/$/),
      expect.stringMatching(/^POST \/api\/vmware-disks\/[^/]+\/extend\/$/),
      expect.stringMatching(/^DELETE \/api\/vmware-disks\/[^/]+\/$/),
      expect.stringMatching(/^POST \/api\/vmware-virtual-machine\/[^/]+\/create_port\/$/),
      expect.stringMatching(/^DELETE \/api\/vmware-ports\/[^/]+\/$/),
    ]);
    // The VM's own disk and adapter are still there, unchanged: the step extended and deleted the new ones.
    expect(await devicesOf()).toEqual(own);
    expect(own.disks).toHaveLength(disksBefore);
  });

  it('takes a snapshot, resizes, reverts to it (the old RAM comes back) and deletes it, each result arriving live', async () => {
    const from = requests.length;
    const snapshots = page.getByRole('region', { name: 'Snapshots' });
    await snapshots.getByLabel('Snapshot name').fill('before-change');
    await snapshots.getByRole('button', { name: 'Take snapshot', exact: true }).click();
    await page.getByTestId('snapshot-before-change').waitFor({ timeout: 60_000 });
    await page.getByLabel('RAM (MiB)').fill('2048');
    await page.getByRole('button', { name: 'Resize', exact: true }).click();
    await page.locator('.details dd').getByText('2048 MiB', { exact: true }).waitFor({ timeout: 60_000 });
    await shot('05e-vm-snapshot-taken');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Revert to before-change', exact: true }).click();
    await page.locator('.details dd').getByText('4096 MiB', { exact: true }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Delete snapshot before-change', exact: true }).click();
    await page.getByTestId('snapshot-before-change').waitFor({ state: 'detached', timeout: 60_000 });
    await snapshots.getByText('No snapshots.').waitFor();
    expect(apiRequests(from).map(describeRequest)).toEqual([
      expect.stringMatching(/^POST \/api\/vmware-virtual-machine\/[^/]+\/create_snapshot\/$/),
      expect.stringMatching(/^PATCH \/api\/vmware-virtual-machine\/[^/]+\/$/),
      expect.stringMatching(/^POST \/api\/vmware-snapshots\/[^/]+\/revert\/$/),
      expect.stringMatching(/^DELETE \/api\/vmware-snapshots\/[^/]+\/$/),
    ]);
    const vm = await market.api.ok<Json>('member', 'GET', `/api/vmware-virtual-machine/${vmUuid}/`);
    expect(vm).toMatchObject({ ram: 4096, snapshots: [] });
  });

  it("draws the VM's usage charts with vCenter's samples, the chart library loaded only with them", async () => {
    for (const metric of ['cpu', 'memory', 'disk', 'network']) {
      const figure = page.getByTestId(`usage-${metric}`);
      await figure.locator('canvas').waitFor({ timeout: 30_000 });
      expect(await figure.locator('figcaption').innerText()).toMatch(/180 samples every 20 s/);
    }
    const scripts = requests
      .filter((r) => r.resourceType() === 'script')
      .map((r) => new URL(r.url()).pathname);
    expect(scripts.some((path) => /usage-chart-[^/]+\.js$/.test(path))).toBe(true);
    await page.getByTestId('usage-cpu').scrollIntoViewIfNeeded();
    await shot('05f-vm-usage-charts');
    await page
      .getByRole('region', { name: 'Usage' })
      .screenshot({ path: join(SHOTS, '05g-vm-usage-section.png') });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows another organisation's user none of it", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const outsider = await context.newPage();
    try {
      await outsider.goto(`${market.api.base}/orders`);
      await outsider.getByLabel('Username').fill('outsider');
      await outsider.getByLabel('Password').fill(outsiderPassword);
      await outsider.getByRole('button', { name: 'Sign in' }).click();
      await outsider.getByText('No orders in this project yet.').waitFor();
      await outsider.screenshot({ path: join(SHOTS, '05b-outsider-phone.png'), fullPage: true });
      expect(await seriousViolations(outsider)).toEqual([]);
      await outsider.getByRole('link', { name: 'Virtual machines' }).click();
      await outsider.getByText('No virtual machines in this project.').waitFor();
      for (const path of [`/orders/${orderUuid}`, `/vms/${vmUuid}`]) {
        await outsider.goto(`${market.api.base}${path}`);
        await outsider
          .getByRole('alert')
          .getByText(/not found/i)
          .waitFor();
      }
      expect(await outsider.locator('body').innerText()).not.toContain('web-vm-1');
    } finally {
      await context.close();
    }
  });

  it('shows the stream reconnecting while the gateway restarts, then resumes it from its last event', async () => {
    const restarted = market.restart('gateway');
    await page.getByText('Reconnecting…', { exact: true }).waitFor({ timeout: 20_000 });
    await shot('05c-reconnecting');
    await restarted;
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
    const streams = requests.filter((r) => new URL(r.url()).pathname === '/api/events');
    const resumed = streams[streams.length - 1];
    expect(Number(resumed.headers()['last-event-id'])).toBeGreaterThan(0);
  });

  it('terminates the VM and sees its resource Terminated', async () => {
    const from = requests.length;
    const vm = await market.api.ok<Json>('member', 'GET', `/api/vmware-virtual-machine/${vmUuid}/`);
    const resourceUuid = vm.marketplace_resource_uuid as string;
    await page.getByRole('button', { name: 'Terminate', exact: true }).click();
    await page.getByRole('button', { name: /^Yes, terminate/ }).click();
    await page.getByText('Terminated', { exact: true }).waitFor({ timeout: 120_000 });
    await shot('06-vm-terminated');
    const resource = await market.api.ok<Json>(
      'member',
      'GET',
      `/api/marketplace-resources/${resourceUuid}/`,
    );
    expect(resource.state).toBe('Terminated');
    // The events came over the resumed stream: no request but the terminate and the stream's.
    expect(apiRequests(from).map(describeRequest)).toEqual([
      `POST /api/marketplace-resources/${resourceUuid}/terminate/`,
    ]);
  });

  it("lists the resource Terminated among the project's resources", async () => {
    await page.getByRole('link', { name: 'Resources' }).click();
    await page.locator('[data-resource="web-vm-1"]').getByText('Terminated', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lets the provider approve, reject and complete by hand the orders for its offering, each change live', async () => {
    // The member owns the demo organisation: made the provider of a Basic offering, its own orders
    // (an owner skips the consumer's review) wait for it as provider.
    const offering = await market.api.ok<Named & { plans: { uuid: string }[] }>(
      'staff',
      'POST',
      '/api/marketplace-provider-offerings/',
      { name: 'Consulting', type: 'Marketplace.Basic', customer: market.customer.uuid },
    );
    await market.api.ok('staff', 'POST', `/api/marketplace-provider-offerings/${offering.uuid}/activate/`);
    const project = (await market.api.ok<Named[]>('member', 'GET', '/api/projects/'))[0];
    const order = (name: string) =>
      market.api.ok<Named & { state: string }>('member', 'POST', '/api/marketplace-orders/', {
        offering: offering.uuid,
        project: project.uuid,
        plan: offering.plans[0].uuid,
        attributes: { name },
      });
    const kept = await order('audit');
    const refused = await order('migration');
    expect([kept.state, refused.state]).toEqual(['pending-provider', 'pending-provider']);

    await page.getByRole('link', { name: 'Provider orders' }).click();
    const review = page.getByRole('region', { name: 'Waiting for your review' });
    const byHand = page.getByRole('region', { name: 'To complete by hand' });
    await review.locator('[data-order="migration"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shot('07-provider-orders-pending');
    const from = requests.length;

    await page.getByRole('button', { name: 'Approve audit', exact: true }).click();
    await byHand.locator('[data-order="audit"]').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Reject migration', exact: true }).click();
    await review.getByText('No order waits for your review.').waitFor({ timeout: 30_000 });
    await shot('08-provider-order-to-complete');
    await page.getByRole('button', { name: 'Mark done audit', exact: true }).click();
    await byHand.getByText('No Basic order waits to be completed.').waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);

    expect(apiRequests(from).map(describeRequest)).toEqual([
      `POST /api/marketplace-orders/${kept.uuid}/approve_by_provider/`,
      `POST /api/marketplace-orders/${refused.uuid}/reject_by_provider/`,
      `POST /api/marketplace-orders/${kept.uuid}/set_state_done/`,
    ]);
    const states = await Promise.all(
      [kept, refused].map((o) =>
        market.api.ok<{ state: string }>('member', 'GET', `/api/marketplace-orders/${o.uuid}/`),
      ),
    );
    expect(states.map((o) => o.state)).toEqual(['done', 'rejected']);
  });

  it('signs out: the token leaves the tab', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
  });
});
