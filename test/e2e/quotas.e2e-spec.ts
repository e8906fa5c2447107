import {
  readVirtualMachines,
  powerOffVm,
  reconfigureHardware,
  runTask,
  vmObject,
  type MoRef,
  type VimConnection,
} from '@app/vim25';
import type { Answer, Json } from '../support/api-session';
import { eventually, orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';
import type { Named } from '../support/vcsim-offering';

jest.setTimeout(300_000);

interface Quota {
  name: string;
  limit: number;
  usage: number;
}
type WithQuotas = Json & { quotas: Quota[] };

/**
 * Quotas end to end, through REST on vcsim: set by staff on the organisation and by its owner on a
 * project (never above the organisation's), shown with usage on the project and the organisation;
 * the order (and its dry run) that would pass one refused with the quota, its limit, the usage and
 * the request; fifty concurrent orders against a quota that admits ten; usage after a resize and a
 * delete made directly in vcsim.
 */
describe('quotas end to end', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let placement: { network: Named; folder: Named };
  let vm: Vm;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('quotas');
    vim = await market.vim();
    placement = await market.vmPlacement();
  });

  afterAll(async () => {
    await market?.stop();
  });

  const projectPath = (uuid = market.project.uuid) => `/api/projects/${uuid}/`;
  const usageOf = (body: WithQuotas, name: string) => body.quotas.find((q) => q.name === name);

  function orderBody(projectUuid: string, name: string, limits: Record<string, number>) {
    const base = market.api.base;
    const offering = `${base}/api/marketplace-public-offerings/${market.offering.uuid}/`;
    return {
      offering,
      project: `${base}/api/projects/${projectUuid}/`,
      plan: `${offering}plans/${market.offering.plans[0].uuid}/`,
      attributes: {
        name,
        template: `${base}/api/vmware-templates/${market.templates[0].uuid}/`,
        cores_per_socket: 1,
        networks: [{ url: `${base}/api/vmware-networks/${placement.network.uuid}/` }],
        folder: `${base}/api/vmware-folders/${placement.folder.uuid}/`,
      },
      limits,
      accepting_terms_of_service: true,
    };
  }

  it("lets staff set the organisation's quotas and its owner the project's, never above the organisation's", async () => {
    const byOwner = await market.api.call(
      'member',
      'POST',
      `/api/customers/${market.customer.uuid}/set_quotas/`,
      {
        vcpu: 8,
      },
    );
    expect(byOwner.status).toBe(403);
    const organisation = await market.api.ok<WithQuotas>(
      'staff',
      'POST',
      `/api/customers/${market.customer.uuid}/set_quotas/`,
      { vcpu: 8 },
    );
    expect(usageOf(organisation, 'vcpu')).toEqual({ name: 'vcpu', limit: 8, usage: 0 });

    const above = await market.api.call('member', 'POST', `${projectPath()}set_quotas/`, { vcpu: 9 });
    expect({ status: above.status, body: above.body }).toEqual({
      status: 400,
      body: { vcpu: ["A project quota for vCPU cannot be above the organisation's (8)."] },
    });
    const project = await market.api.ok<WithQuotas>('member', 'POST', `${projectPath()}set_quotas/`, {
      vcpu: 3,
    });
    expect(project.quotas).toEqual([
      { name: 'vcpu', limit: 3, usage: 0 },
      { name: 'ram', limit: -1, usage: 0 },
      { name: 'storage', limit: -1, usage: 0 },
      { name: 'max_instances', limit: -1, usage: 0 },
      { name: 'cost', limit: -1, usage: 0 },
    ]);
    const read = await market.api.ok<WithQuotas>('member', 'GET', projectPath());
    expect(read.quotas).toEqual(project.quotas);
  });

  it('refuses the order past the quota at once, on the dry run too, with the quota, its limit, the usage and the request', async () => {
    vm = await orderVm(market, 'e2e-quota-1', placement);
    const project = await market.api.ok<WithQuotas>('member', 'GET', projectPath());
    expect(usageOf(project, 'vcpu')).toEqual({ name: 'vcpu', limit: 3, usage: 2 });
    expect(usageOf(project, 'max_instances')).toEqual({ name: 'max_instances', limit: -1, usage: 1 });
    // The monthly cost from the plan's prices counts too.
    const ordered = await market.api.ok<Json>(
      'member',
      'GET',
      `/api/marketplace-resources/${vm.marketplace_resource_uuid}/`,
    );
    expect(Number(ordered.cost)).toBeGreaterThan(0);
    expect(usageOf(project, 'cost')).toEqual({ name: 'cost', limit: -1, usage: Number(ordered.cost) });
    const message = 'Project quota for vCPU is 3; 2 are in use or ordered; this order asks for 2.';
    const body = orderBody(market.project.uuid, 'e2e-quota-2', { cpu: 2, ram: 2048 });
    const dryRun = await market.api.call('member', 'POST', '/api/marketplace-orders/?dry_run=true', body);
    expect({ status: dryRun.status, body: dryRun.body }).toEqual({
      status: 400,
      body: { limits: [message] },
    });
    const order = await market.api.call('member', 'POST', '/api/marketplace-orders/', body);
    expect({ status: order.status, body: order.body }).toEqual({ status: 400, body: { limits: [message] } });
    // Nothing was stored: the project still has its one resource.
    const resources = await market.api.ok<Json[]>(
      'member',
      'GET',
      `/api/marketplace-resources/?project_uuid=${market.project.uuid}`,
    );
    expect(resources).toHaveLength(1);
    const fits = await market.api.call('member', 'POST', '/api/marketplace-orders/?dry_run=true', {
      ...body,
      limits: { cpu: 1, ram: 2048 },
    });
    expect(fits.status).toBe(200);
  });

  it('follows a resize and a delete made directly in vcsim', async () => {
    const ref: MoRef = { type: 'VirtualMachine', value: vm.backend_id };
    await powerOffVm(vim, ref);
    await reconfigureHardware(vim, ref, { numCPUs: 3 });
    const pull = await market.api.call<{ uuid: string }>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/pull/`,
    );
    expect(pull.status).toBe(202);
    // The pull ends before the VM is deleted, so the resize is what it reads (the live subscription
    // may count the resize first).
    await eventually(
      () =>
        market.api.sql<{ state: string }>(`SELECT "state" FROM "vsphere"."vm_operations" WHERE "uuid" = $1`, [
          pull.body.uuid,
        ]),
      ([row]) => row?.state === 'done',
      60_000,
      'the pull done',
    );
    const resized = await eventually(
      () => market.api.ok<WithQuotas>('member', 'GET', projectPath()),
      (project) => usageOf(project, 'vcpu')?.usage === 3,
      60_000,
      'the project counting the VM resized in vcsim',
    );
    expect(usageOf(resized, 'vcpu')).toEqual({ name: 'vcpu', limit: 3, usage: 3 });

    await runTask(vim, (o) => vmObject(vim, ref).destroy(o));
    expect((await readVirtualMachines(vim)).some((info) => info.instanceUuid === vm.uuid)).toBe(false);
    await market.api.call('member', 'POST', `/api/vmware-virtual-machine/${vm.uuid}/pull/`);
    const deleted = await eventually(
      () => market.api.ok<WithQuotas>('member', 'GET', projectPath()),
      (project) => usageOf(project, 'max_instances')?.usage === 0,
      60_000,
      'the project releasing the VM deleted in vcsim',
    );
    expect(usageOf(deleted, 'vcpu')).toEqual({ name: 'vcpu', limit: 3, usage: 0 });
    const organisation = await market.api.ok<WithQuotas>(
      'member',
      'GET',
      `/api/customers/${market.customer.uuid}/`,
    );
    expect(usageOf(organisation, 'vcpu')).toEqual({ name: 'vcpu', limit: 8, usage: 0 });
  });

  it('accepts exactly ten of fifty concurrent orders against a quota that admits ten', async () => {
    const second = await market.api.ok<Named>('staff', 'POST', '/api/projects/', {
      name: 'quota race',
      customer: `${market.api.base}/api/customers/${market.customer.uuid}/`,
    });
    // A project admin's orders wait for the owner's review: ordered, not yet done, and counted.
    await market.api.user('racer', 'staff');
    await market.api.ok('staff', 'POST', `${projectPath(second.uuid)}add_user/`, {
      user: market.api.users.racer,
      role: 'PROJECT.ADMIN',
    });
    await market.api.ok('staff', 'POST', `/api/customers/${market.customer.uuid}/set_quotas/`, { vcpu: -1 });
    await market.api.ok('member', 'POST', `${projectPath(second.uuid)}set_quotas/`, { max_instances: 10 });
    const answers: Answer<Json>[] = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        market.api.call<Json>(
          'racer',
          'POST',
          '/api/marketplace-orders/',
          orderBody(second.uuid, `race-${i}`, { cpu: 1, ram: 1024 }),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    const accepted = answers.filter((answer) => answer.status === 201);
    console.log(
      `quota race: ${accepted.length} of 50 accepted; statuses ${JSON.stringify(countBy(statuses))}`,
    );
    expect(accepted).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(40);
    for (const answer of answers.filter((a) => a.status === 400))
      expect(answer.body).toEqual({
        limits: ['Project quota for VMs is 10; 10 are in use or ordered; this order asks for 1.'],
      });
    expect(accepted.every((answer) => answer.body.state === 'pending-consumer')).toBe(true);
    const project = await market.api.ok<WithQuotas>('racer', 'GET', projectPath(second.uuid));
    expect(usageOf(project, 'max_instances')).toEqual({ name: 'max_instances', limit: 10, usage: 10 });

    // A rejected order gives its room back in the same step: the next order fits.
    const rejected = await market.api.call(
      'member',
      'POST',
      `/api/marketplace-orders/${accepted[0].body.uuid as string}/reject_by_consumer/`,
      {},
    );
    expect(rejected.status).toBe(200);
    const after = await market.api.ok<WithQuotas>('racer', 'GET', projectPath(second.uuid));
    expect(usageOf(after, 'max_instances')?.usage).toBe(9);
    const next = await market.api.call(
      'racer',
      'POST',
      '/api/marketplace-orders/',
      orderBody(second.uuid, 'race-next', { cpu: 1, ram: 1024 }),
    );
    expect(next.status).toBe(201);

    // A quota lowered below usage refuses growth and leaves what is there alone.
    await market.api.ok('member', 'POST', `${projectPath(second.uuid)}set_quotas/`, { max_instances: 5 });
    const lowered = await market.api.ok<WithQuotas>('racer', 'GET', projectPath(second.uuid));
    expect(usageOf(lowered, 'max_instances')).toEqual({ name: 'max_instances', limit: 5, usage: 10 });
    const refused = await market.api.call(
      'racer',
      'POST',
      '/api/marketplace-orders/',
      orderBody(second.uuid, 'race-late', { cpu: 1, ram: 1024 }),
    );
    expect(refused.body).toEqual({
      limits: ['Project quota for VMs is 5; 10 are in use or ordered; this order asks for 1.'],
    });
    const pending = await market.api.ok<Json[]>(
      'member',
      'GET',
      `/api/marketplace-orders/?project_uuid=${second.uuid}&state=pending-consumer&page_size=100`,
    );
    expect(pending).toHaveLength(10);
  });
});

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
