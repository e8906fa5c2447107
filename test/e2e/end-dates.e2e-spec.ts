import { readVirtualMachines, type VimConnection } from '@app/vim25';
import type { Json } from '../support/api-session';
import { AppProcess } from '../support/app-process';
import { SseClient } from '../support/sse-client';
import type { Named } from '../support/vcsim-offering';
import { eventually, orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Resource = Json & {
  uuid: string;
  state: string;
  end_date: string | null;
  end_date_warnings: number[];
};
type Order = Json & { uuid: string; type: string; state: string; created_by_username: string | null };

const DAY_MS = 86_400_000;
const WARNING_LEAD_S = 4;

/**
 * End dates end to end, on vcsim, with two sync-schedulers (one leads) sweeping every half second
 * and one warning 4 s ahead: an end date past the offering's maximum lease refused (at order time and later); a VM
 * whose end date is a few seconds ahead gets its warning on SSE and on the resource, then a
 * Terminate order placed by the system user (the running VM stopped first) that ends done, and the
 * VM is gone from vcsim.
 */
describe('end dates end to end', () => {
  let market: VsphereMarketplace;
  let schedulers: AppProcess[];
  let vim: VimConnection;
  let placement: { network: Named; folder: Named };
  let vm: Vm;
  let events: SseClient;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('enddates', {
      env: { END_DATE_WARNINGS_S: String(WARNING_LEAD_S) },
    });
    // Two scheduler instances: one leads the sweeps, and the resource is still terminated once.
    schedulers = [1, 2].map(
      () => new AppProcess('sync-scheduler', { ...market.env, END_DATE_TICK_MS: '500' }),
    );
    await Promise.all(schedulers.map((scheduler) => scheduler.start()));
    vim = await market.vim();
    placement = await market.vmPlacement();
    await market.api.ok('staff', 'PATCH', `/api/marketplace-provider-offerings/${market.offering.uuid}/`, {
      max_resource_termination_offset_in_days: 7,
    });
    events = await SseClient.open(`${market.api.base}/api/events?type=ResourceStateChanged`, {
      token: market.api.tokens.member,
    });
    expect(events.status).toBe(200);
  });

  afterAll(async () => {
    events?.close();
    await Promise.all((schedulers ?? []).map((scheduler) => scheduler.stop()));
    await market?.stop();
  });

  const resourcePath = () => `/api/marketplace-resources/${vm.marketplace_resource_uuid}/`;

  it("takes an end date within the offering's maximum lease at order time, and refuses one past it there and on the resource", async () => {
    const base = market.api.base;
    const offering = `${base}/api/marketplace-public-offerings/${market.offering.uuid}/`;
    const tooLate = new Date(Date.now() + 8 * DAY_MS).toISOString();
    const orderBody = {
      offering,
      project: `${base}/api/projects/${market.project.uuid}/`,
      plan: `${offering}plans/${market.offering.plans[0].uuid}/`,
      attributes: {
        name: 'e2e-too-late',
        template: `${base}/api/vmware-templates/${market.templates[0].uuid}/`,
        cores_per_socket: 1,
        networks: [{ url: `${base}/api/vmware-networks/${placement.network.uuid}/` }],
        folder: `${base}/api/vmware-folders/${placement.folder.uuid}/`,
        end_date: tooLate,
      },
      limits: { cpu: 1, ram: 1024 },
      accepting_terms_of_service: true,
    };
    const order = await market.api.call('member', 'POST', '/api/marketplace-orders/?dry_run=true', orderBody);
    const withinLease = new Date(Date.now() + 2 * DAY_MS).toISOString();
    const draft = await market.api.call<{ attributes: Json }>(
      'member',
      'POST',
      '/api/marketplace-orders/?dry_run=true',
      {
        ...orderBody,
        attributes: { ...orderBody.attributes, end_date: withinLease },
      },
    );
    expect(draft.status).toBe(200);
    expect(draft.body.attributes.end_date).toBe(withinLease);
    // Ordered for real, the end date is the new resource's, set by whoever ordered it.
    const placed = await market.api.ok<Json & { marketplace_resource_uuid: string }>(
      'member',
      'POST',
      '/api/marketplace-orders/',
      { ...orderBody, attributes: { ...orderBody.attributes, name: 'e2e-leased', end_date: withinLease } },
    );
    const leased = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-resources/${placed.marketplace_resource_uuid}/`,
    );
    expect(leased).toMatchObject({
      end_date: withinLease,
      end_date_requested_by_uuid: market.api.users.member,
      end_date_warnings: [],
    });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({
      end_date: [
        expect.stringMatching(
          /^The end date cannot be more than 7 days ahead: the offering's maximum lease ends /,
        ),
      ],
    });

    vm = await orderVm(market, 'e2e-end-date', placement);
    const later = await market.api.call('member', 'POST', `${resourcePath()}set_end_date/`, {
      end_date: tooLate,
    });
    expect(later.status).toBe(400);
    expect((await market.api.ok<Resource>('member', 'GET', resourcePath())).end_date).toBeNull();
  });

  it('warns before the end date, then terminates the VM by a system Terminate order that ends done', async () => {
    expect(vm.runtime_state).toBe('POWERED_ON');
    const endDate = new Date(Date.now() + (WARNING_LEAD_S + 6) * 1000).toISOString();
    const set = await market.api.call<Resource>('member', 'POST', `${resourcePath()}set_end_date/`, {
      end_date: endDate,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ end_date: new Date(endDate).toISOString(), end_date_warnings: [] });

    const mine = () =>
      events.data<Resource>('ResourceStateChanged').filter((r) => r.uuid === vm.marketplace_resource_uuid);
    await events.waitFor(
      () => mine().some((r) => r.end_date_warnings.includes(WARNING_LEAD_S)),
      30_000,
      'the warning before the end date',
    );
    const warning = mine().find((r) => r.end_date_warnings.includes(WARNING_LEAD_S)) as Resource;
    expect(warning.state).toBe('OK');
    // The warning came before its time had come, and before anything was done to the resource.
    const terminatingAt = mine().findIndex((r) => r.state === 'Terminating');
    expect(terminatingAt === -1 || mine().indexOf(warning) < terminatingAt).toBe(true);
    expect((await market.api.ok<Resource>('member', 'GET', resourcePath())).end_date_warnings).toEqual([
      WARNING_LEAD_S,
    ]);

    const terminate = await eventually(
      () =>
        market.api.ok<Order[]>(
          'member',
          'GET',
          `/api/marketplace-orders/?resource_uuid=${vm.marketplace_resource_uuid}&type=Terminate`,
        ),
      (orders) => orders.length > 0 && orders[0].state === 'done',
      90_000,
      'the Terminate order done',
    );
    expect(terminate).toHaveLength(1);
    expect(terminate[0]).toMatchObject({
      type: 'Terminate',
      state: 'done',
      created_by_username: 'system:end-dates',
    });
    expect(new Date(terminate[0].created as string).getTime()).toBeGreaterThanOrEqual(
      new Date(endDate).getTime(),
    );
    expect((await market.api.ok<Resource>('member', 'GET', resourcePath())).state).toBe('Terminated');
    expect((await readVirtualMachines(vim)).some((info) => info.instanceUuid === vm.uuid)).toBe(false);
    // It ran: the system asked the adapter to stop the VM before its Terminate could be placed.
    const [row] = await market.api.sql<{ end_date_stop_requested_at: Date | null }>(
      `SELECT "end_date_stop_requested_at" FROM "marketplace"."resources" WHERE "uuid" = $1`,
      [vm.marketplace_resource_uuid],
    );
    expect(row.end_date_stop_requested_at).not.toBeNull();
  });
});
