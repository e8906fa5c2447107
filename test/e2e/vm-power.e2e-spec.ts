import { readVirtualMachines, type VimConnection, type VmInfo } from '@app/vim25';
import type { Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import {
  eventually,
  operationEnd,
  orderVm,
  vmChanges,
  type Operation,
  type Vm,
} from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(180_000);

/**
 * Issue 10's power slice on vcsim through the vCenter 8 front: a VM an order made, seen at
 * `/api/vmware-virtual-machine/`, stopped and started (each accepted as a queued operation, carried
 * out in vcsim and streamed as VmChanged), a refused action with its reason, several actions at once
 * queued and carried out one by one, and an outsider who sees neither the VM nor its events.
 */
describe('VM power actions end to end: REST, the adapter, vcsim and SSE', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let marketplaceResourceUuid: string;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmpower');
    vim = await market.vim();
    const { network, folder } = await market.vmPlacement();
    vm = await orderVm(market, 'e2e-power-1', { network, folder });
    marketplaceResourceUuid = vm.marketplace_resource_uuid;

    await market.outsider();
  });

  afterAll(async () => {
    await market?.stop();
  });

  async function inVcsim(): Promise<VmInfo | undefined> {
    return (await readVirtualMachines(vim)).find((info) => info.instanceUuid === vm.uuid);
  }

  const changes = (stream: SseClient) => vmChanges(stream, vm.uuid);

  /** The 202 of an action: the queued operation, as Waldur's "<action> was scheduled". */
  async function act(action: string): Promise<Operation> {
    const answer = await market.api.call<Operation>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/${action}/`,
    );
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      operation: action,
      status: `${action} was scheduled`,
      vm_uuid: vm.uuid,
      state: 'pending',
      error_message: '',
      vm: vm.url,
    });
    return answer.body;
  }

  async function powerInVcsim(state: string): Promise<void> {
    await eventually(inVcsim, (info) => info?.powerState === state, 30_000, `${state} in vcsim`);
  }

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

  it('stops the VM: 202 with the queued operation, VmChanged POWERED_OFF on the SSE stream of its members only, poweredOff in vcsim', async () => {
    const member = await stream('member');
    const outsider = await stream('outsider');
    try {
      const stop = await act('stop');
      const ended = await operationEnd(member, stop);
      expect(ended.operation).toMatchObject({ uuid: stop.uuid, operation: 'stop', state: 'done' });
      expect(ended).toMatchObject({
        runtime_state: 'POWERED_OFF',
        name: 'e2e-power-1',
        marketplace_resource_uuid: marketplaceResourceUuid,
      });
      expect((await inVcsim())?.powerState).toBe('poweredOff');
      const after = await market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`);
      expect(after).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
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
      const start = await act('start');
      const ended = await operationEnd(member, start);
      expect(ended).toMatchObject({ runtime_state: 'POWERED_ON', operation: { state: 'done' } });
      expect((await inVcsim())?.powerState).toBe('poweredOn');
    } finally {
      member.close();
    }
  });

  it('suspends a running VM and starts it from SUSPENDED: suspended, then poweredOn in vcsim', async () => {
    await act('suspend');
    await powerInVcsim('suspended');
    await eventually(
      () => market.api.ok<Vm>('member', 'GET', `/api/vmware-virtual-machine/${vm.uuid}/`),
      (now) => now.runtime_state === 'SUSPENDED',
      30_000,
      'SUSPENDED in REST',
    );
    const reset = await market.api.call<Json>(
      'member',
      'POST',
      `/api/vmware-virtual-machine/${vm.uuid}/reset/`,
    );
    expect(reset.status).toBe(409);
    expect(reset.body).toEqual({
      detail: 'The virtual machine must be POWERED_ON to reset; it is SUSPENDED.',
    });
    await act('start');
    await powerInVcsim('poweredOn');
  });

  it('queues five resets asked at once and carries out each: all 202, all done, no TaskInProgress', async () => {
    const member = await stream('member');
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          market.api.call<Operation>('member', 'POST', `/api/vmware-virtual-machine/${vm.uuid}/reset/`),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
      const operations = answers.map((a) => a.body);
      expect(new Set(operations.map((o) => o.uuid)).size).toBe(5);
      const ends = [];
      for (const operation of operations) ends.push(await operationEnd(member, operation, 60_000));
      expect(ends.map((end) => end.operation?.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
      expect(ends.map((end) => end.operation?.error_message)).toEqual(['', '', '', '', '']);
      expect((await inVcsim())?.powerState).toBe('poweredOn');
    } finally {
      member.close();
    }
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
