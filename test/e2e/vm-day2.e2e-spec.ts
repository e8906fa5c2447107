import {
  powerOffVm,
  readVirtualMachines,
  reconfigureHardware,
  runTask,
  vmObject,
  VimFault,
  type MoRef,
  type VimConnection,
  type VirtualDisk,
  type VirtualEthernetCard,
  type VmInfo,
} from '@app/vim25';
import type { Answer, Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import {
  eventually,
  operationEnd,
  orderVm,
  vmWatchers,
  vmChanges,
  type Disk,
  type Operation,
  type Port,
  type Vm,
} from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Named = Json & { uuid: string; name: string; backend_id: string };

const TOOLS_NOT_RUNNING = 'VMware Tools are not running.';
const AT_MOST_TEN = 'Virtual machine can have at most 10 network adapters.';

/**
 * Day-2 operations on VMs orders made, on vcsim behind the vCenter 8 front, through REST and SSE
 * only, each checked in vcsim: guest power refused without Tools, consoles, resize (refused while
 * on, as vCenter refuses a CPU change on a running VM), disks and network adapters made, grown and
 * removed (one at a time and ten at once), an Erred disk destroyed, drift found by a pull, and who
 * sees the VmChanged events. The tests run in order on one VM: each leaves it as the next expects.
 */
describe('VM day-2 operations end to end: REST, the adapter, vcsim and SSE', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let spare: Vm;
  let assigned: Named;
  let unassigned: Named;
  let project: SseClient;
  let outsider: SseClient;
  const kindsSeen = new Set<string>();

  beforeAll(async () => {
    // This suite proves drift found by the pull action: no live subscription records it first.
    market = await VsphereMarketplace.start('vmday2', { adapterEnv: { VSPHERE_VM_WATCH: 'false' } });
    vim = await market.vim();
    const networks = (await market.inventory('vmware-networks')) as Named[];
    unassigned = networks.find((n) => n.name === 'DC0_DVPG0') as Named;
    assigned = networks.find((n) => n.name === 'VM Network') as Named;
    const folder = (await market.inventory('vmware-folders'))[0];
    // DC0_DVPG0 is for new VMs only; adapters of existing VMs may go on VM Network only.
    await market.assign('networks', unassigned.uuid);
    await market.assign('folders', folder.uuid);
    await market.api.ok('staff', 'POST', '/api/vmware-customer-network-pairs/', {
      customer: market.customer.uuid,
      network: assigned.uuid,
    });
    vm = await orderVm(market, 'e2e-day2-1', { network: unassigned, folder });
    spare = await orderVm(market, 'e2e-day2-2', { network: unassigned, folder });

    // A member of the VM's project, and another organisation's owner.
    ({ project, outsider } = await vmWatchers(market));
    expect([project.status, outsider.status]).toEqual([200, 200]);
  });

  afterAll(async () => {
    project?.close();
    outsider?.close();
    await market?.stop();
  });

  const vmPath = (suffix = '', of: Vm = vm) => `/api/vmware-virtual-machine/${of.uuid}/${suffix}`;
  const ref = (of: Vm = vm): MoRef => ({ type: 'VirtualMachine', value: of.backend_id });

  async function inVcsim(of: Vm = vm): Promise<VmInfo> {
    const info = (await readVirtualMachines(vim)).find((candidate) => candidate.instanceUuid === of.uuid);
    if (!info) throw new Error(`${of.name} is not in vcsim`);
    return info;
  }
  const disksInVcsim = async (of: Vm = vm) =>
    (await inVcsim(of)).devices.filter((d): d is VirtualDisk => d.kind === 'disk');
  const nicsInVcsim = async (of: Vm = vm) =>
    (await inVcsim(of)).devices.filter((d): d is VirtualEthernetCard => d.kind === 'nic');

  /** An adapter attached to `network` (a standard port group by moref, a distributed one by key). */
  const onNetwork = (nic: VirtualEthernetCard, network: Named): boolean =>
    (nic.backing.kind === 'standard' && nic.backing.network?.value === network.backend_id) ||
    (nic.backing.kind === 'distributed' && nic.backing.portgroupKey === network.backend_id);

  function accepted(answer: Answer<Operation>): Operation {
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      state: 'pending',
      vm_uuid: vm.uuid,
      vm: `${market.api.base}${vmPath()}`,
      error_message: '',
    });
    kindsSeen.add(answer.body.operation);
    return answer.body;
  }

  /** Waits for the operation's end on the project member's stream; it must have ended done. */
  async function done(operation: Operation, timeoutMs = 30_000) {
    const ended = await operationEnd(project, operation, timeoutMs);
    expect(ended.operation).toMatchObject({ uuid: operation.uuid, state: 'done', error_message: '' });
    return ended;
  }

  const getVm = (of: Vm = vm) => market.api.ok<Vm>('member', 'GET', vmPath('', of));

  it('shows the VM with its disks and adapters, each with its own url', async () => {
    expect(vm).toMatchObject({ runtime_state: 'POWERED_ON', state: 'OK' });
    expect(vm.disks.length).toBeGreaterThan(0);
    expect(vm.ports.length).toBe(1);
    for (const disk of vm.disks) {
      expect(disk).toMatchObject({ url: `${market.api.base}/api/vmware-disks/${disk.uuid}/`, state: 'OK' });
      expect(await market.api.ok<Disk>('member', 'GET', `/api/vmware-disks/${disk.uuid}/`)).toEqual(disk);
    }
    const [port] = vm.ports;
    expect(port).toMatchObject({ url: `${market.api.base}/api/vmware-ports/${port.uuid}/`, state: 'OK' });
    const nics = await nicsInVcsim();
    expect(nics.map((nic) => String(nic.key))).toEqual([port.backend_id]);
    expect(vm.disk).toBe(vm.disks.reduce((sum, disk) => sum + disk.size, 0));
  });

  it(`refuses shutdown_guest and reboot_guest with "${TOOLS_NOT_RUNNING}" (409), the VM left running`, async () => {
    for (const action of ['shutdown_guest', 'reboot_guest']) {
      const answer = await market.api.call('member', 'POST', vmPath(`${action}/`));
      expect({ action, status: answer.status, body: answer.body }).toEqual({
        action,
        status: 409,
        body: { detail: TOOLS_NOT_RUNNING },
      });
    }
    expect((await inVcsim()).powerState).toBe('poweredOn');
  });

  it('answers the web console with a new single-use ticket for this VM each time; VMRC to staff only, with no ticket', async () => {
    const first = await market.api.ok<{ url: string }>('member', 'GET', vmPath('web_console/'));
    const second = await market.api.ok<{ url: string }>('member', 'GET', vmPath('web_console/'));
    const pattern = /^wss:\/\/[^/]+\/ticket\/([0-9a-f]+)$/;
    const [, ticket1] = pattern.exec(first.url) ?? [];
    const [, ticket2] = pattern.exec(second.url) ?? [];
    expect(ticket1).toBeTruthy();
    expect(ticket2).toBeTruthy();
    expect(ticket1).not.toBe(ticket2);
    const refused = await market.api.call<{ detail: string }>('member', 'GET', vmPath('console/'));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: {
        detail:
          'The VMRC console needs a vCenter account of your own; open the web console (web_console) instead.',
      },
    });
    const vmrc = await market.api.ok<{ url: string }>('staff', 'GET', vmPath('console/'));
    expect(vmrc.url).toBe(`vmrc://${new URL(market.sim.url).host}/?moid=${vm.backend_id}`);
  });

  it('refuses to terminate the running VM through the marketplace (409), the VM kept in vcsim', async () => {
    const answer = await market.api.call(
      'member',
      'POST',
      `/api/marketplace-resources/${vm.marketplace_resource_uuid}/terminate/`,
      {},
    );
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 409,
      body: { detail: 'The virtual machine must be POWERED_OFF to be deleted; it is POWERED_ON.' },
    });
    expect((await inVcsim()).powerState).toBe('poweredOn');
    const resource = await market.api.ok<Json>(
      'member',
      'GET',
      `/api/marketplace-resources/${vm.marketplace_resource_uuid}/`,
    );
    expect(resource.state).toBe('OK');
  });

  it('refuses to resize the running VM (409 with the reason), vcsim unchanged', async () => {
    const answer = await market.api.call<{ detail: string }>('member', 'PATCH', vmPath(), { cores: 4 });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 409,
      body: { detail: 'The virtual machine must be POWERED_OFF to be resized; it is POWERED_ON.' },
    });
    expect((await inVcsim()).numCPU).toBe(2);
  });

  it('sees vCenter itself refuse a CPU change on the running VM sent straight to it', async () => {
    const refused = await reconfigureHardware(vim, ref(), { numCPUs: 4 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(VimFault);
    expect((refused as VimFault).faultType).toBe('CpuHotPlugNotSupported');
    expect((await inVcsim()).numCPU).toBe(2);
  });

  it('adds a network adapter on an assigned network: 201 CREATING, OK on SSE, connected in vcsim on that network', async () => {
    const answer = await market.api.call<Port>('member', 'POST', vmPath('create_port/'), {
      network: `${market.api.base}/api/vmware-networks/${assigned.uuid}/`,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      url: `${market.api.base}/api/vmware-ports/${answer.body.uuid}/`,
      state: 'CREATING',
      network_uuid: assigned.uuid,
      vm_uuid: vm.uuid,
    });
    kindsSeen.add('create_port');
    await project.waitFor(
      () =>
        vmChanges(project, vm.uuid).some((c) =>
          c.ports.some((p) => p.uuid === answer.body.uuid && p.state === 'OK'),
        ),
      30_000,
      'the adapter OK',
    );
    const port = await market.api.ok<Port>('member', 'GET', `/api/vmware-ports/${answer.body.uuid}/`);
    expect(port).toMatchObject({ state: 'OK', runtime_state: 'CONNECTED', error_message: '' });
    const nic = (await nicsInVcsim()).find((n) => String(n.key) === port.backend_id);
    expect(nic).toBeDefined();
    expect(onNetwork(nic as VirtualEthernetCard, assigned)).toBe(true);
    expect(nic?.connected).toBe(true);
    expect(nic?.macAddress).toBe(port.mac_address);
  });

  it('refuses an adapter on a network not assigned for existing VMs (400 naming network)', async () => {
    const before = (await nicsInVcsim()).length;
    const answer = await market.api.call('member', 'POST', vmPath('create_port/'), {
      network: `${market.api.base}/api/vmware-networks/${unassigned.uuid}/`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ network: ['This network is not available for this customer.'] });
    expect((await nicsInVcsim()).length).toBe(before);
  });

  it('removes the added adapter: 202, gone from vcsim and from the VM', async () => {
    const added = (await getVm()).ports.find((p) => p.network_uuid === assigned.uuid) as Port;
    const operation = accepted(
      await market.api.call<Operation>('member', 'DELETE', `/api/vmware-ports/${added.uuid}/`),
    );
    expect(operation).toMatchObject({ operation: 'delete_port', port_uuid: added.uuid });
    const ended = await done(operation);
    expect(ended.ports.map((p) => p.uuid)).not.toContain(added.uuid);
    expect((await nicsInVcsim()).map((n) => String(n.key))).not.toContain(added.backend_id);
    expect((await market.api.call('member', 'GET', `/api/vmware-ports/${added.uuid}/`)).status).toBe(404);
  });

  let disk: Disk;

  it('adds a disk: 201 CREATING, then OK over SSE, and vcsim has it at that size', async () => {
    const answer = await market.api.call<Disk>('member', 'POST', vmPath('create_disk/'), { size: 2048 });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ state: 'CREATING', size: 2048, vm_uuid: vm.uuid, backend_id: '' });
    kindsSeen.add('create_disk');
    await project.waitFor(
      () =>
        vmChanges(project, vm.uuid).some((c) =>
          c.disks.some((d) => d.uuid === answer.body.uuid && d.state === 'OK'),
        ),
      30_000,
      'the disk OK',
    );
    disk = await market.api.ok<Disk>('member', 'GET', `/api/vmware-disks/${answer.body.uuid}/`);
    expect(disk).toMatchObject({ state: 'OK', size: 2048, error_message: '' });
    const inSim = (await disksInVcsim()).find((d) => String(d.key) === disk.backend_id);
    expect(inSim?.capacityInKB).toBe(2048 * 1024);
  });

  it('refuses a disk too small or over the offering limit (400 naming size)', async () => {
    const before = (await disksInVcsim()).length;
    for (const size of [512, 600 * 1024]) {
      const answer = await market.api.call<Record<string, string[]>>(
        'member',
        'POST',
        vmPath('create_disk/'),
        {
          size,
        },
      );
      expect({ size, status: answer.status, fields: Object.keys(answer.body) }).toEqual({
        size,
        status: 400,
        fields: ['size'],
      });
    }
    expect((await disksInVcsim()).length).toBe(before);
  });

  it('extends the disk (vcsim larger) and refuses a smaller size with "Disk size should be greater than …"', async () => {
    const operation = accepted(
      await market.api.call<Operation>('member', 'POST', `/api/vmware-disks/${disk.uuid}/extend/`, {
        size: 4096,
      }),
    );
    expect(operation).toMatchObject({ operation: 'extend_disk', disk_uuid: disk.uuid });
    const ended = await done(operation);
    expect(ended.disks.find((d) => d.uuid === disk.uuid)?.size).toBe(4096);
    const inSim = (await disksInVcsim()).find((d) => String(d.key) === disk.backend_id);
    expect(inSim?.capacityInKB).toBe(4096 * 1024);

    const smaller = await market.api.call<{ size: string[] }>(
      'member',
      'POST',
      `/api/vmware-disks/${disk.uuid}/extend/`,
      { size: 2048 },
    );
    expect(smaller.status).toBe(400);
    expect(smaller.body.size[0]).toMatch(/^Disk size should be greater than /);
    expect((await disksInVcsim()).find((d) => String(d.key) === disk.backend_id)?.capacityInKB).toBe(
      4096 * 1024,
    );
  });

  it('deletes the disk: 202, gone from vcsim, then 404', async () => {
    const operation = accepted(
      await market.api.call<Operation>('member', 'DELETE', `/api/vmware-disks/${disk.uuid}/`),
    );
    expect(operation).toMatchObject({ operation: 'delete_disk', disk_uuid: disk.uuid });
    await done(operation);
    expect((await disksInVcsim()).map((d) => String(d.key))).not.toContain(disk.backend_id);
    expect((await market.api.call('member', 'GET', `/api/vmware-disks/${disk.uuid}/`)).status).toBe(404);
  });

  it('carries out ten disks asked at once: all 201, all OK, ten new disks in vcsim, no TaskInProgress reaching anyone', async () => {
    const before = new Set((await disksInVcsim()).map((d) => d.key));
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        market.api.call<Disk>('member', 'POST', vmPath('create_disk/'), { size: 1024 }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const uuids = answers.map((a) => a.body.uuid);
    const settled = await eventually(
      getVm,
      (now) =>
        uuids.every((uuid) => ['OK', 'ERRED'].includes(now.disks.find((d) => d.uuid === uuid)?.state ?? '')),
      90_000,
      'ten disks settled',
    );
    const made = settled.disks.filter((d) => uuids.includes(d.uuid));
    expect(made.map((d) => [d.state, d.error_message])).toEqual(Array(10).fill(['OK', '']));
    const added = (await disksInVcsim()).filter((d) => !before.has(d.key));
    expect(added.length).toBe(10);
    expect(added.map((d) => String(d.key)).sort()).toEqual(made.map((d) => d.backend_id).sort());
    expect(added.every((d) => d.capacityInKB === 1024 * 1024)).toBe(true);
    const errors = vmChanges(project, vm.uuid).map((c) => c.operation?.error_message ?? '');
    expect(
      errors.filter((message) => message.includes('TaskInProgress') || message.includes('in progress')),
    ).toEqual([]);
  });

  it('carries out ten adapters asked at once up to ten per VM: each port bound to its own adapter, the eleventh refused', async () => {
    const had = (await getVm()).ports.length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        market.api.call<Port>('member', 'POST', vmPath('create_port/'), {
          network: `${market.api.base}/api/vmware-networks/${assigned.uuid}/`,
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 201).map((a) => a.body);
    const refused = answers.filter((a) => a.status !== 201);
    expect(created.length).toBe(10 - had);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(AT_MOST_TEN);
    }
    const settled = await eventually(
      getVm,
      (now) =>
        created.every((p) => ['OK', 'ERRED'].includes(now.ports.find((q) => q.uuid === p.uuid)?.state ?? '')),
      90_000,
      'the adapters settled',
    );
    expect(settled.ports.length).toBe(10);
    expect(settled.ports.every((p) => p.state === 'OK')).toBe(true);
    const nics = await nicsInVcsim();
    expect(nics.length).toBe(10);
    // No two ports share an adapter, and each names the adapter vcsim has with its MAC and network.
    expect(new Set(settled.ports.map((p) => p.backend_id)).size).toBe(10);
    for (const port of settled.ports) {
      const nic = nics.find((n) => String(n.key) === port.backend_id);
      expect({ port: port.uuid, mac: nic?.macAddress }).toEqual({ port: port.uuid, mac: port.mac_address });
    }
    for (const port of created) {
      const nic = nics.find(
        (n) => String(n.key) === settled.ports.find((p) => p.uuid === port.uuid)?.backend_id,
      );
      expect(onNetwork(nic as VirtualEthernetCard, assigned)).toBe(true);
    }
    const eleventh = await market.api.call('member', 'POST', vmPath('create_port/'), {
      network: `${market.api.base}/api/vmware-networks/${assigned.uuid}/`,
    });
    expect(eleventh.status).toBe(400);
    expect(JSON.stringify(eleventh.body)).toContain(AT_MOST_TEN);
    expect((await nicsInVcsim()).length).toBe(10);
  });

  it('finds drift: a VM powered off in vCenter shows POWERED_OFF after a pull, and the VmChanged is streamed', async () => {
    await powerOffVm(vim, ref());
    expect((await getVm()).runtime_state).toBe('POWERED_ON');
    const operation = accepted(await market.api.call<Operation>('member', 'POST', vmPath('pull/')));
    expect(operation.operation).toBe('pull');
    const ended = await done(operation);
    expect(ended.runtime_state).toBe('POWERED_OFF');
    expect((await getVm()).runtime_state).toBe('POWERED_OFF');
  });

  it('resizes the powered-off VM by PATCH and by PUT: vcsim has the new CPU and RAM, VmChanged streamed', async () => {
    const patch = accepted(
      await market.api.call<Operation>('member', 'PATCH', vmPath(), { cores: 4, ram: 4096 }),
    );
    expect(patch).toMatchObject({ operation: 'update', status: 'update was scheduled' });
    expect(await done(patch)).toMatchObject({ cores: 4, ram: 4096, state: 'OK' });
    expect(await inVcsim()).toMatchObject({ numCPU: 4, memoryMB: 4096 });

    const put = accepted(
      await market.api.call<Operation>('member', 'PUT', vmPath(), {
        cores: 2,
        cores_per_socket: 2,
        ram: 2048,
      }),
    );
    expect(await done(put)).toMatchObject({ cores: 2, cores_per_socket: 2, ram: 2048 });
    expect(await inVcsim()).toMatchObject({ numCPU: 2, numCoresPerSocket: 2, memoryMB: 2048 });
  });

  it("refuses a resize beyond the offering's maximums (400 naming cores, ram), vcsim unchanged", async () => {
    const cores = await market.api.call<Json>('member', 'PATCH', vmPath(), { cores: 64 });
    expect(cores.status).toBe(400);
    expect(Object.keys(cores.body)).toEqual(['cores']);
    const ram = await market.api.call<Json>('member', 'PATCH', vmPath(), { ram: 128 * 1024 });
    expect(ram.status).toBe(400);
    expect(Object.keys(ram.body)).toEqual(['ram']);
    expect(await inVcsim()).toMatchObject({ numCPU: 2, memoryMB: 2048 });
  });

  it("errs a disk when vCenter refuses it (another task in flight on the VM), with vCenter's message; Destroy removes it (204)", async () => {
    // An administrator's task holds the VM in vCenter: the adapter's ReconfigVM_Task meets TaskInProgress.
    market.sim.front.delayVmTasks(5_000);
    const held = runTask(vim, (o) =>
      vmObject(vim, ref(spare)).reconfigure({ annotation: 'held by an administrator' }, o),
    );
    try {
      await new Promise((r) => setTimeout(r, 500));
      const before = (await disksInVcsim(spare)).length;
      const answer = await market.api.call<Disk>('member', 'POST', vmPath('create_disk/', spare), {
        size: 1024,
      });
      expect(answer.status).toBe(201);
      const erred = await eventually(
        () => market.api.ok<Disk>('member', 'GET', `/api/vmware-disks/${answer.body.uuid}/`),
        (d) => d.state !== 'CREATING',
        30_000,
        'the disk to settle',
      );
      expect(erred).toMatchObject({ state: 'ERRED', backend_id: '' });
      expect(erred.error_message).toContain('Another task is already in progress.');
      expect((await disksInVcsim(spare)).length).toBe(before);
      const destroy = await market.api.call('member', 'DELETE', `/api/vmware-disks/${erred.uuid}/`);
      expect(destroy.status).toBe(204);
      expect(destroy.text).toBe('');
      expect((await market.api.call('member', 'GET', `/api/vmware-disks/${erred.uuid}/`)).status).toBe(404);
    } finally {
      await held;
      market.sim.front.delayVmTasks(0);
    }
    expect((await getVm(spare)).state).not.toBe('UPDATING');
  });

  it('errs a disk with nowhere to attach it, with the reason, and destroys it at once (204)', async () => {
    // The VM loses its SCSI controllers in vCenter: nowhere to attach a new disk.
    const controllers = (await inVcsim(spare)).devices.filter((d) => d.kind === 'scsi');
    expect(controllers.length).toBeGreaterThan(0);
    const deviceChange = controllers.map((c) => ({ operation: 'remove', device: c.raw }));
    await runTask(vim, (o) => vmObject(vim, ref(spare)).reconfigure({ deviceChange }, o));
    const before = (await disksInVcsim(spare)).length;

    const answer = await market.api.call<Disk>('member', 'POST', vmPath('create_disk/', spare), {
      size: 1024,
    });
    expect(answer.status).toBe(201);
    const erred = await eventually(
      () => market.api.ok<Disk>('member', 'GET', `/api/vmware-disks/${answer.body.uuid}/`),
      (d) => d.state !== 'CREATING',
      30_000,
      'the disk to settle',
    );
    expect(erred).toMatchObject({ state: 'ERRED', backend_id: '' });
    expect(erred.error_message.length).toBeGreaterThan(0);
    expect((await disksInVcsim(spare)).length).toBe(before);

    const destroy = await market.api.call('member', 'DELETE', `/api/vmware-disks/${erred.uuid}/`);
    expect(destroy.status).toBe(204);
    expect(destroy.text).toBe('');
    expect((await market.api.call('member', 'GET', `/api/vmware-disks/${erred.uuid}/`)).status).toBe(404);
    expect((await getVm(spare)).disks.map((d) => d.uuid)).not.toContain(erred.uuid);
  });

  it("streams each VmChanged to the VM's project member and none to another organisation's user", async () => {
    const changes = vmChanges(project, vm.uuid);
    const kinds = new Set(changes.map((c) => c.operation?.operation).filter((k) => k !== undefined));
    for (const kind of kindsSeen) expect({ kind, seen: kinds.has(kind) }).toEqual({ kind, seen: true });
    expect(changes.every((c) => c.url === `${market.api.base}/api/vmware-virtual-machine/${vm.uuid}/`)).toBe(
      true,
    );
    // The outsider's stream shared the feed all along: the project member's events came first.
    expect(outsider.data('VmChanged')).toEqual([]);
    const list = await market.api.ok<Json[]>('outsider', 'GET', `/api/vmware-disks/?vm_uuid=${vm.uuid}`);
    expect(list).toEqual([]);
    expect((await market.api.call('outsider', 'POST', vmPath('create_disk/'), { size: 1024 })).status).toBe(
      404,
    );
  });
});
