import { connectVim, readVirtualMachines, type VimConnection, type VmInfo } from '@app/vim25';
import type { Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(180_000);

type Order = Json & { uuid: string; state: string; resource_uuid: string | null };
type Vm = Json & {
  uuid: string;
  url: string;
  name: string;
  runtime_state: string;
  cores: number;
  cores_per_socket: number;
  ram: number;
  disk: number;
  marketplace_resource_uuid: string;
  customer_uuid: string;
};
type Named = Json & { uuid: string; name: string };

/**
 * Issue 10's power slice on vcsim through the vCenter 8 front: a VM an order made, seen at
 * `/api/vmware-virtual-machine/`, stopped and started (each checked in vcsim and streamed as
 * VmChanged), a refused action with its reason, and an outsider who sees neither the VM nor its events.
 */
describe('VM power actions end to end: REST, the adapter, vcsim and SSE', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let marketplaceResourceUuid: string;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmpower');
    vim = await connectVim({
      url: market.sim.url,
      caPem: market.sim.caPem,
      username: market.sim.username,
      password: market.sim.password,
    });
    const network = (await market.inventory('vmware-networks')).find((n) => n.name === 'DC0_DVPG0') as Named;
    const folder = (await market.inventory('vmware-folders'))[0];
    await market.assign('networks', network.uuid);
    await market.assign('folders', folder.uuid);
    const base = market.api.base;
    const order = await market.api.ok<Order & { marketplace_resource_uuid: string }>(
      'member',
      'POST',
      '/api/marketplace-orders/',
      {
        offering: `${base}/api/marketplace-public-offerings/${market.offering.uuid}/`,
        project: `${base}/api/projects/${market.project.uuid}/`,
        plan: `${base}/api/marketplace-public-offerings/${market.offering.uuid}/plans/${market.offering.plans[0].uuid}/`,
        attributes: {
          name: 'e2e-power-1',
          template: `${base}/api/vmware-templates/${market.templates[0].uuid}/`,
          cores_per_socket: 1,
          networks: [{ url: `${base}/api/vmware-networks/${network.uuid}/` }],
          folder: `${base}/api/vmware-folders/${folder.uuid}/`,
        },
        limits: { cpu: 2, ram: 2048 },
        accepting_terms_of_service: true,
      },
    );
    marketplaceResourceUuid = order.marketplace_resource_uuid;
    const deadline = Date.now() + 120_000;
    let done: Order;
    do {
      await new Promise((r) => setTimeout(r, 500));
      done = await market.api.ok<Order>('member', 'GET', `/api/marketplace-orders/${order.uuid}/`);
    } while (!['done', 'erred'].includes(done.state) && Date.now() < deadline);
    expect(done.state).toBe('done');
    vm = await market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${done.resource_uuid}/`);

    // Another organisation with a member of its own.
    const other = await market.api.ok<Named>('staff', 'POST', '/api/customers/', { name: 'Other org' });
    await market.api.user('outsider', 'staff');
    await market.api.ok('staff', 'POST', `/api/customers/${other.uuid}/add_user/`, {
      user: market.api.users.outsider,
      role: 'CUSTOMER.OWNER',
    });
  });

  afterAll(async () => {
    await market?.stop();
  });

  async function inVcsim(): Promise<VmInfo | undefined> {
    return (await readVirtualMachines(vim)).find((info) => info.instanceUuid === vm.uuid);
  }

  const changes = (stream: SseClient) =>
    stream.data<Vm>('VmChanged').filter((changed) => changed.uuid === vm.uuid);

  async function stream(who: string): Promise<SseClient> {
    const opened = await SseClient.open(`${market.api.base}/api/events`, { token: market.api.tokens[who] });
    expect(opened.status).toBe(200);
    return opened;
  }

  it("shows the VM an order made with Waldur's fields, in its list and by the marketplace resource's resource_uuid", async () => {
    expect(vm).toMatchObject({
      name: 'e2e-power-1',
      runtime_state: 'POWERED_ON',
      cores: 2,
      cores_per_socket: 1,
      ram: 2048,
      marketplace_resource_uuid: marketplaceResourceUuid,
      customer_uuid: market.customer.uuid,
      url: `${market.api.base}/api/vmware-virtual-machine/${vm.uuid}/`,
    });
    expect(vm.disk).toBeGreaterThan(0);
    const resource = await market.api.ok<Json>(
      'member',
      'GET',
      `/api/marketplace-resources/${marketplaceResourceUuid}/`,
    );
    expect(resource.resource_uuid).toBe(vm.uuid);
    const listed = await market.api.ok<Vm[]>('member', 'GET', '/api/vmware-virtual-machine/');
    expect(listed.map((v) => v.uuid)).toEqual([vm.uuid]);
    expect((await inVcsim())?.powerState).toBe('poweredOn');
  });

  it('stops the VM: 202, VmChanged POWERED_OFF on the SSE stream of its members only, poweredOff in vcsim', async () => {
    const member = await stream('member');
    const outsider = await stream('outsider');
    try {
      const answer = await market.api.call<Json>(
        'member',
        'POST',
        `/api/vmware-virtual-machine/${vm.uuid}/stop/`,
      );
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ uuid: vm.uuid, operation: 'stop', runtime_state: 'POWERED_OFF' });
      await member.waitFor((s) => changes(s).length > 0, 30_000, 'VmChanged');
      expect(changes(member).map((c) => c.runtime_state)).toEqual(['POWERED_OFF']);
      expect(changes(member)[0]).toMatchObject({
        name: 'e2e-power-1',
        marketplace_resource_uuid: marketplaceResourceUuid,
      });
      expect((await inVcsim())?.powerState).toBe('poweredOff');
      const after = await market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`);
      expect(after.runtime_state).toBe('POWERED_OFF');
      // The outsider's stream had every chance to get it: the member's came first from the same feed.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(changes(outsider)).toEqual([]);
    } finally {
      member.close();
      outsider.close();
    }
  });

  it('refuses to suspend a powered-off VM with the reason, and leaves it as it was', async () => {
    const answer = await market.api.call<Json>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/suspend/`,
    );
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      detail: 'The virtual machine must be POWERED_ON to suspend; it is POWERED_OFF.',
    });
    expect((await inVcsim())?.powerState).toBe('poweredOff');
  });

  it('starts the VM again: 202, VmChanged POWERED_ON, poweredOn in vcsim', async () => {
    const member = await stream('member');
    try {
      const answer = await market.api.call<Json>(
        'member',
        'POST',
        `/api/vmware-virtual-machine/${vm.uuid}/start/`,
      );
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ operation: 'start', runtime_state: 'POWERED_ON' });
      await member.waitFor((s) => changes(s).length > 0, 30_000, 'VmChanged');
      expect(changes(member).map((c) => c.runtime_state)).toEqual(['POWERED_ON']);
      expect((await inVcsim())?.powerState).toBe('poweredOn');
    } finally {
      member.close();
    }
  });

  it('suspends a running VM and starts it from SUSPENDED: suspended, then poweredOn in vcsim', async () => {
    const suspend = await market.api.call<Json>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/suspend/`,
    );
    expect(suspend.status).toBe(202);
    expect(suspend.body).toMatchObject({ operation: 'suspend', runtime_state: 'SUSPENDED' });
    expect((await inVcsim())?.powerState).toBe('suspended');
    const reset = await market.api.call<Json>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/reset/`,
    );
    expect(reset.status).toBe(409);
    expect(reset.body).toEqual({
      detail: 'The virtual machine must be POWERED_ON to reset; it is SUSPENDED.',
    });
    const start = await market.api.call<Json>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/start/`,
    );
    expect(start.status).toBe(202);
    expect((await inVcsim())?.powerState).toBe('poweredOn');
  });

  it('carries out or refuses as busy each of five resets asked at once: none lost, no TaskInProgress', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        market.api.call<Json>('member', 'POST', `/api/vmware-virtual-machine/${vm.uuid}/reset/`),
      ),
    );
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status !== 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const answer of accepted)
      expect(answer.body).toMatchObject({ operation: 'reset', runtime_state: 'POWERED_ON' });
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ detail: 'Another operation is in progress on this virtual machine.' });
    }
    expect((await inVcsim())?.powerState).toBe('poweredOn');
  });

  it("answers 404 to another organisation's member, for the VM and its actions, and lists nothing", async () => {
    const get = await market.api.call('outsider', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`);
    expect(get.status).toBe(404);
    const stop = await market.api.call('outsider', 'POST', `/api/vmware-virtual-machine/${vm.uuid}/stop/`);
    expect(stop.status).toBe(404);
    expect(await market.api.ok<Vm[]>('outsider', 'GET', '/api/vmware-virtual-machine/')).toEqual([]);
    expect((await inVcsim())?.powerState).toBe('poweredOn');
  });
});
