import { connectVim, powerOffVm, readVirtualMachines, type VimConnection, type VmInfo } from '@app/vim25';
import { TERMINAL_ORDER_STATES } from '@app/contracts';
import type { Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(180_000);

type Order = Json & { uuid: string; state: string; error_message: string; marketplace_resource_uuid: string };
type Resource = Json & {
  uuid: string;
  state: string;
  error_message: string;
  resource_uuid: string | null;
  backend_id: string | null;
  limits: Record<string, number>;
};
type Named = Json & { uuid: string; name: string; backend_id: string };

const TERMINAL: readonly string[] = TERMINAL_ORDER_STATES;

/**
 * Issue 14's acceptance on vcsim through the vCenter 8 front, only through the public REST API and
 * the SSE stream: a VM ordered, followed over SSE to done, checked in vcsim; resized by an Update
 * order while powered off; terminated; and a deploy vCenter refuses after validation passed.
 */
describe('VM orders end to end: REST, events, the adapter and vcsim', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let network: Named;
  let folder: Named;
  let template: Named;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmorders', { templates: ['Ubuntu-24.04', 'Debian-12'] });
    vim = await connectVim({
      url: market.sim.url,
      caPem: market.sim.caPem,
      username: market.sim.username,
      password: market.sim.password,
    });
    network = (await market.inventory('vmware-networks')).find((n) => n.name === 'DC0_DVPG0') as Named;
    folder = (await market.inventory('vmware-folders'))[0] as Named;
    template = market.templates.find((t) => t.name === 'Ubuntu-24.04') as Named;
    await market.assign('networks', network.uuid);
    await market.assign('folders', folder.uuid);
  });

  afterAll(async () => {
    await market?.stop();
  });

  const links = () => ({
    offering: `${market.api.base}/api/marketplace-public-offerings/${market.offering.uuid}/`,
    project: `${market.api.base}/api/projects/${market.project.uuid}/`,
    plan: `${market.api.base}/api/marketplace-public-offerings/${market.offering.uuid}/plans/${market.offering.plans[0].uuid}/`,
  });

  function vmOrder(name: string, templateUuid = template.uuid): Json {
    return {
      ...links(),
      attributes: {
        name,
        description: 'ordered by the e2e test',
        template: `${market.api.base}/api/vmware-templates/${templateUuid}/`,
        cores_per_socket: 1,
        networks: [{ url: `${market.api.base}/api/vmware-networks/${network.uuid}/` }],
        folder: `${market.api.base}/api/vmware-folders/${folder.uuid}/`,
      },
      limits: { cpu: 2, ram: 2048 },
      accepting_terms_of_service: true,
    };
  }

  async function vmOf(resource: Resource): Promise<VmInfo | undefined> {
    return (await readVirtualMachines(vim)).find((vm) => vm.instanceUuid === resource.resource_uuid);
  }

  /** Follows one order on its own stream until it ends; the states it went through. */
  async function follow(orderUuid: string): Promise<Order[]> {
    const stream = await SseClient.open(`${market.api.base}/api/marketplace-orders/${orderUuid}/events`, {
      token: market.api.tokens.member,
    });
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor((s) => s.ended, 120_000, `order ${orderUuid} to end`);
      return stream
        .data<{ order?: Order } & Order>()
        .map((data) => data.order ?? data)
        .filter((order) => order.uuid === orderUuid);
    } finally {
      stream.close();
    }
  }

  const orderStates = (stream: SseClient, orderUuid: string) =>
    stream
      .data<Order>('OrderStateChanged')
      .filter((order) => order.uuid === orderUuid)
      .map((order) => order.state);

  let resource: Resource;

  it('provisions a VM with 2 vCPU, 2 GiB, the chosen network and folder, followed over SSE from its first state to done', async () => {
    const stream = await SseClient.open(`${market.api.base}/api/events?project_uuid=${market.project.uuid}`, {
      token: market.api.tokens.member,
    });
    try {
      const order = await market.api.ok<Order>(
        'member',
        'POST',
        '/api/marketplace-orders/',
        vmOrder('e2e-vm-1'),
      );
      await stream.waitFor(
        (s) => orderStates(s, order.uuid).some((state) => TERMINAL.includes(state)),
        120_000,
        'the order to end',
      );
      // An organisation owner skips consumer review; a vSphere offering needs no provider review.
      expect(orderStates(stream, order.uuid)).toEqual(['executing', 'done']);
      const resources = stream
        .data<Resource>('ResourceStateChanged')
        .filter((r) => r.uuid === order.marketplace_resource_uuid);
      expect(resources.map((r) => r.state)).toEqual(['Creating', 'OK']);
      const ids = stream.messages.map((message) => Number(message.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      stream.close();
    }
    const [created] = await market.api.ok<Order[]>('member', 'GET', '/api/marketplace-orders/?type=Create');
    resource = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-orders/${created.uuid}/resource/`,
    );
    expect(resource.state).toBe('OK');
    expect(created.resource_uuid).toBe(resource.resource_uuid);
    expect(resource.limits).toMatchObject({ cpu: 2, ram: 2048 });

    const vm = await vmOf(resource);
    expect(vm).toBeDefined();
    expect(vm?.name).toBe('e2e-vm-1');
    expect(vm?.ref.value).toBe(resource.backend_id);
    expect(vm?.powerState).toBe('poweredOn');
    expect([vm?.numCPU, vm?.memoryMB]).toEqual([2, 2048]);
    expect(vm?.parent?.value).toBe(folder.backend_id);
    const nics = vm?.devices.filter((device) => device.kind === 'nic') ?? [];
    expect(nics).toHaveLength(1);
    expect(nics[0]).toMatchObject({ backing: { kind: 'distributed', portgroupKey: network.backend_id } });
  });

  it('refuses to resize a running VM, with the reason', async () => {
    const answer = await market.api.call(
      'member',
      'POST',
      `/api/marketplace-resources/${resource.uuid}/update_limits/`,
      {
        limits: { cpu: 4, ram: 2048 },
      },
    );
    expect(answer.status).toBe(409);
    expect(JSON.stringify(answer.body)).toContain('POWERED_OFF');
  });

  it('resizes the powered-off VM to 4 vCPU by an Update order; a client that drops mid-flow resumes with Last-Event-ID and misses nothing', async () => {
    await powerOffVm(vim, { type: 'VirtualMachine', value: resource.backend_id as string });
    const first = await SseClient.open(`${market.api.base}/api/events?resource_uuid=${resource.uuid}`, {
      token: market.api.tokens.member,
    });
    const { order_uuid } = await market.api.ok<{ order_uuid: string }>(
      'member',
      'POST',
      `/api/marketplace-resources/${resource.uuid}/update_limits/`,
      { limits: { cpu: 4, ram: 2048 } },
    );
    await first.waitFor((s) => s.messages.length > 0, 30_000, 'the first event of the update');
    const seen = first.messages[0];
    first.close();

    const states = await follow(order_uuid);
    expect(states.map((order) => order.state)).toEqual(['executing', 'done']);

    const resumed = await SseClient.open(`${market.api.base}/api/events?resource_uuid=${resource.uuid}`, {
      token: market.api.tokens.member,
      lastEventId: seen.id,
    });
    try {
      await resumed.waitFor(
        (s) => s.data<Order>('OrderStateChanged').some((o) => o.uuid === order_uuid && o.state === 'done'),
        30_000,
        'the missed events',
      );
      // What the client saw before it dropped, and after it resumed: every event of the update, once, in order.
      const all = [seen, ...resumed.messages];
      const ids = all.map((message) => Number(message.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const stateOf = (type: string) =>
        all
          .filter((message) => message.event === type)
          .map((message) => (JSON.parse(message.data) as { state: string }).state);
      expect(stateOf('OrderStateChanged')).toEqual(['executing', 'done']);
      // The VM's new size, pushed from vCenter, may be recorded before the order ends: one more
      // ResourceStateChanged then carries the limits while the resource is still Updating.
      const resourceStates = stateOf('ResourceStateChanged').filter(
        (state, i, list) => state !== list[i - 1],
      );
      expect(resourceStates).toEqual(['Updating', 'OK']);
    } finally {
      resumed.close();
    }
    const vm = await vmOf(resource);
    expect(vm?.numCPU).toBe(4);
    const after = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-resources/${resource.uuid}/`,
    );
    expect(after.state).toBe('OK');
    expect(after.limits.cpu).toBe(4);
  });

  it('terminates the VM: the resource Terminated and the VM gone from vcsim', async () => {
    const { order_uuid } = await market.api.ok<{ order_uuid: string }>(
      'member',
      'POST',
      `/api/marketplace-resources/${resource.uuid}/terminate/`,
      {},
    );
    const states = await follow(order_uuid);
    expect(states.map((order) => order.state)).toEqual(['executing', 'done']);
    const after = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-resources/${resource.uuid}/`,
    );
    expect(after.state).toBe('Terminated');
    expect(await vmOf(resource)).toBeUndefined();
  });

  it("ends erred with vCenter's message on the order and the resource, in REST and in the event, when vCenter refuses a deploy that passed validation", async () => {
    const debian = market.templates.find((t) => t.name === 'Debian-12') as Named;
    // The synchronised inventory still lists the template: validation passes, vCenter refuses.
    await market.library.deleteItem(debian.backend_id);
    const stream = await SseClient.open(`${market.api.base}/api/events?project_uuid=${market.project.uuid}`, {
      token: market.api.tokens.member,
    });
    try {
      const order = await market.api.ok<Order>(
        'member',
        'POST',
        '/api/marketplace-orders/',
        vmOrder('e2e-vm-2', debian.uuid),
      );
      await stream.waitFor((s) => orderStates(s, order.uuid).includes('erred'), 60_000, 'the order to err');
      const erred = stream
        .data<Order>('OrderStateChanged')
        .find((o) => o.uuid === order.uuid && o.state === 'erred');
      const message = `Library item with identifier ${debian.backend_id} does not exist.`;
      expect(erred?.error_message).toContain(message);
      const rest = await market.api.ok<Order>('member', 'GET', `/api/marketplace-orders/${order.uuid}/`);
      expect(rest).toMatchObject({ state: 'erred', error_message: erred?.error_message });
      const failed = await market.api.ok<Resource>(
        'member',
        'GET',
        `/api/marketplace-orders/${order.uuid}/resource/`,
      );
      expect(failed).toMatchObject({ state: 'Erred', error_message: erred?.error_message });
      await stream.waitFor(
        (s) =>
          s.data<Resource>('ResourceStateChanged').some((r) => r.uuid === failed.uuid && r.state === 'Erred'),
        10_000,
        'the resource event',
      );
    } finally {
      stream.close();
    }
    expect((await readVirtualMachines(vim)).some((vm) => vm.name === 'e2e-vm-2')).toBe(false);
  });

  it('retries an erred VM order once its cause is gone: the order done and one VM in vcsim', async () => {
    const first = await market.api.ok<Order>(
      'member',
      'POST',
      '/api/marketplace-orders/',
      vmOrder('e2e-dup'),
    );
    expect((await follow(first.uuid)).map((order) => order.state)).toEqual(['executing', 'done']);
    const twin = await market.api.ok<Order>('member', 'POST', '/api/marketplace-orders/', vmOrder('e2e-dup'));
    const erred = (await follow(twin.uuid)).pop();
    expect(erred).toMatchObject({ state: 'erred', error_message: "The name 'e2e-dup' already exists." });

    // The name is freed: the first VM is stopped in vCenter and terminated through the marketplace.
    const taken = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-orders/${first.uuid}/resource/`,
    );
    await powerOffVm(vim, { type: 'VirtualMachine', value: taken.backend_id as string });
    const { order_uuid } = await market.api.ok<{ order_uuid: string }>(
      'member',
      'POST',
      `/api/marketplace-resources/${taken.uuid}/terminate/`,
      {},
    );
    expect((await follow(order_uuid)).pop()?.state).toBe('done');

    const retried = await market.api.ok<Order>(
      'member',
      'POST',
      `/api/marketplace-orders/${twin.uuid}/retry/`,
    );
    expect(retried.state).toBe('executing');
    expect((await follow(twin.uuid)).pop()?.state).toBe('done');
    const resource = await market.api.ok<Resource>(
      'member',
      'GET',
      `/api/marketplace-orders/${twin.uuid}/resource/`,
    );
    expect(resource.state).toBe('OK');
    const named = (await readVirtualMachines(vim)).filter((vm) => vm.name === 'e2e-dup');
    expect(named.map((vm) => vm.instanceUuid)).toEqual([resource.resource_uuid]);
  });
});
