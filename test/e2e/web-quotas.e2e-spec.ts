import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { Json } from '../support/api-session';
import { launchChromium, seriousViolations, SHOTS, signIn } from '../support/browser';
import { orderVm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';
import type { Named } from '../support/vcsim-offering';

jest.setTimeout(300_000);

const DAY_MS = 86_400_000;
const isoDay = (daysAhead: number) => new Date(Date.now() + daysAhead * DAY_MS).toISOString().slice(0, 10);

/**
 * Quotas and end dates in the portal, in Chromium against the whole system on vcsim: the project
 * page's quota bars (limit, and usage counting what is ordered) moving live as a VM is ordered; the
 * order form's end-date field bounded by the offering's maximum lease, a date past it refused by the
 * dry run at the field, one within it ordered; the VM page showing that end date and letting the
 * organisation's owner change it, while a project member sees it without the controls.
 */
describe('quotas and end dates in the web portal', () => {
  let market: VsphereMarketplace;
  let browser: Browser;
  let page: Page;
  let placement: { network: Named; folder: Named };
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const lookerPassword = `pw-${randomBytes(12).toString('hex')}`;
  let vmUuid = '';

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    market = await VsphereMarketplace.start('webquotas');
    placement = await market.vmPlacement();
    await market.api.ok('staff', 'PATCH', `/api/marketplace-provider-offerings/${market.offering.uuid}/`, {
      max_resource_termination_offset_in_days: 7,
    });
    await market.api.ok('staff', 'POST', `/api/customers/${market.customer.uuid}/set_quotas/`, { vcpu: 16 });
    await market.api.ok('member', 'POST', `/api/projects/${market.project.uuid}/set_quotas/`, {
      vcpu: 8,
      max_instances: 3,
    });
    await market.api.setPassword('staff', 'member', password);
    // A project member: sees the VM and its end date, may not change it.
    await market.api.user('looker', 'staff');
    await market.api.ok('staff', 'POST', `/api/projects/${market.project.uuid}/add_user/`, {
      user: market.api.users.looker,
      role: 'PROJECT.MEMBER',
    });
    await market.api.setPassword('staff', 'looker', lookerPassword);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await market?.stop();
  });

  it("shows the project's quota bars, the usage counting an order as it is placed", async () => {
    await page.goto(`${market.api.base}/`);
    await signIn(page, 'member', password);
    await page.getByRole('link', { name: 'Project quotas' }).click();
    await page.getByRole('heading', { name: market.project.name }).waitFor();
    const vcpu = page.getByTestId('quota-vcpu');
    await vcpu.getByText('0 of 8 in use or ordered').waitFor();
    await page.getByTestId('quota-ram').getByText('0 in use or ordered, no limit').waitFor();
    expect(await vcpu.locator('meter').getAttribute('max')).toBe('8');
    // Ordered through the API meanwhile: the bars move without a reload.
    const vm = await orderVm(market, 'web-quota-1', placement);
    vmUuid = vm.uuid;
    await vcpu.getByText(`${vm.cores} of 8 in use or ordered`).waitFor({ timeout: 60_000 });
    await page.getByTestId('quota-max_instances').getByText('1 of 3 in use or ordered').waitFor();
    expect(await vcpu.locator('meter').getAttribute('value')).toBe(String(vm.cores));
    await shot('q1-project-quotas');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("bounds the order form's end date by the maximum lease, the dry run refusing a later one at the field", async () => {
    await page.getByRole('link', { name: 'Catalogue' }).click();
    await page.getByRole('link', { name: `Order ${market.offering.name}` }).click();
    await page.getByRole('heading', { name: `Order ${market.offering.name}` }).waitFor();
    const endDate = page.getByLabel('End date (optional)');
    expect(await endDate.getAttribute('max')).toBe(isoDay(7));
    await page.getByText(`At most 7 days ahead (until ${isoDay(7)})`, { exact: false }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('web-leased');
    await page.getByLabel('vCPU').fill('1');
    await page.getByLabel('RAM (MiB)').fill('1024');
    await page.getByLabel('Folder').selectOption(placement.folder.uuid);
    await page.getByLabel(placement.network.name).check();
    await endDate.fill(isoDay(9));
    const refused = page.locator('[data-field-error="end_date"]');
    await refused
      .getByText(/^The end date cannot be more than 7 days ahead: the offering's maximum lease ends /)
      .waitFor();
    expect(await endDate.getAttribute('aria-invalid')).toBe('true');
    await shot('q2-order-form-end-date-refused');
    expect(await seriousViolations(page)).toEqual([]);
    await endDate.fill(isoDay(5));
    await refused.waitFor({ state: 'detached' });
    await page.getByTestId('dry-run').getByText('The server accepts this order.').waitFor();
    await page.getByRole('button', { name: 'Order', exact: true }).click();
    await page.getByTestId('order-state').getByText('done', { exact: true }).waitFor({ timeout: 180_000 });
    const resources = await market.api.ok<(Json & { name: string; end_date: string | null })[]>(
      'member',
      'GET',
      `/api/marketplace-resources/?project_uuid=${market.project.uuid}`,
    );
    expect(resources.find((r) => r.name === 'web-leased')?.end_date).toBe(`${isoDay(5)}T00:00:00.000Z`);
  });

  it('shows the end date on the VM page; the owner changes it there, a project member only sees it', async () => {
    await page.getByRole('link', { name: 'Open the virtual machine' }).click();
    const shown = page.getByTestId('end-date');
    await shown.getByText(new Date(`${isoDay(5)}T00:00:00Z`).toUTCString(), { exact: false }).waitFor();
    const leasedVm = page.url().split('/').pop() as string;
    await page.getByLabel('New end date').fill(isoDay(3));
    await page.getByRole('button', { name: 'Set end date', exact: true }).click();
    await shown.getByText(new Date(`${isoDay(3)}T00:00:00Z`).toUTCString(), { exact: false }).waitFor();
    const vm = await market.api.ok<Json & { marketplace_resource_uuid: string }>(
      'member',
      'GET',
      `/api/vmware-virtual-machine/${leasedVm}/`,
    );
    const resource = await market.api.ok<Json>(
      'member',
      'GET',
      `/api/marketplace-resources/${vm.marketplace_resource_uuid}/`,
    );
    expect(resource.end_date).toBe(`${isoDay(3)}T00:00:00.000Z`);
    await shot('q3-vm-end-date-changed');
    expect(await seriousViolations(page)).toEqual([]);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const looker = await context.newPage();
    try {
      await looker.goto(`${market.api.base}/vms/${leasedVm}`);
      await signIn(looker, 'looker', lookerPassword);
      await looker
        .getByTestId('end-date')
        .getByText(new Date(`${isoDay(3)}T00:00:00Z`).toUTCString(), { exact: false })
        .waitFor();
      // The other VM has none, and says so.
      await looker.goto(`${market.api.base}/vms/${vmUuid}`);
      await looker.getByTestId('end-date').getByText('No end date', { exact: false }).waitFor();
      // Once it is known that this user may not change it, the controls are absent.
      await looker.getByTestId('end-date-read-only').waitFor();
      expect(await looker.getByLabel('New end date').count()).toBe(0);
      await looker.screenshot({ path: join(SHOTS, 'q4-vm-end-date-read-only.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
