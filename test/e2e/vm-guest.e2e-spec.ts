import {
  readVirtualMachines,
  runTask,
  vmObject,
  type MoRef,
  type VimConnection,
  type VmInfo,
} from '@app/vim25';
import type { Json } from '../support/api-session';
import { SseClient } from '../support/sse-client';
import { makeNvmeOnlyVm, setGuestToolsStatus } from '../support/vcsim-front';
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
  type VmChangedData,
} from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(240_000);

type Named = Json & { uuid: string; name: string };

/**
 * The day-2 paths that need a VM of their own on vcsim behind the vCenter 8 front, through REST and
 * SSE only, each checked in vcsim: a guest shutdown with VMware Tools running followed to the power
 * state's end, every power precondition refused with its reason on a running and a powered-off VM,
 * a stop from SUSPENDED, a guest reboot vCenter refuses ending with its message on the VM, a disk
 * on a VM whose only controller is NVMe, and every runtime change streamed to a project member and
 * to no other organisation's user. The tests run in order on one VM.
 */
describe('VM guest power, preconditions and NVMe disks end to end: REST, the adapter, vcsim and SSE', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let existingVmNetwork: Named;
  let project: SseClient;
  let outsider: SseClient;

  beforeAll(async () => {
    // This suite proves operations' outcomes and what a pull asked for clears: a change the live
    // subscription recorded meanwhile (the Tools status set below, pushed late on a loaded machine)
    // would clear an operation's ERRED before the test looks at it.
    market = await VsphereMarketplace.start('vmguest', { adapterEnv: { VSPHERE_VM_WATCH: 'false' } });
    vim = await market.vim();
    const { network, folder } = await market.vmPlacement();
    vm = await orderVm(market, 'e2e-guest-1', { network, folder });
    existingVmNetwork = (await market.inventory('vmware-networks')).find(
      (n) => n.name === 'VM Network',
    ) as Named;
    await market.api.ok('staff', 'POST', '/api/vmware-customer-network-pairs/', {
      customer: market.customer.uuid,
      network: existingVmNetwork.uuid,
    });

    // A member of the VM's project, and another organisation's owner, watch; an admin of the
    // project acts (members only look).
    ({ project, outsider } = await vmWatchers(market));
    await market.api.user('project-admin', 'staff');
    await market.api.ok('staff', 'POST', `/api/projects/${market.project.uuid}/add_user/`, {
      user: market.api.users['project-admin'],
      role: 'PROJECT.ADMIN',
    });
    expect([project.status, outsider.status]).toEqual([200, 200]);
  });

  afterAll(async () => {
    project?.close();
    outsider?.close();
    await market?.stop();
  });

  const vmPath = (suffix = '') => `/api/vmware-virtual-machine/${vm.uuid}/${suffix}`;
  const ref = (): MoRef => ({ type: 'VirtualMachine', value: vm.backend_id });
  const getVm = () => market.api.ok<Vm>('project-admin', 'GET', vmPath());

  async function inVcsim(): Promise<VmInfo> {
    const info = (await readVirtualMachines(vim)).find((candidate) => candidate.instanceUuid === vm.uuid);
    if (!info) throw new Error(`${vm.name} is not in vcsim`);
    return info;
  }

  /** The 202 of an action asked by the project member, as Waldur's "<action> was scheduled". */
  async function act(action: string): Promise<Operation> {
    const answer = await market.api.call<Operation>('project-admin', 'POST', vmPath(`${action}/`));
    expect({ action, status: answer.status }).toEqual({ action, status: 202 });
    expect(answer.body).toMatchObject({
      operation: action,
      status: `${action} was scheduled`,
      state: 'pending',
      vm_uuid: vm.uuid,
      error_message: '',
    });
    return answer.body;
  }

  /** Each refusal answered 409 with exactly its reason, nothing queued, vcsim's power state kept. */
  async function refusesAll(refusals: Record<string, string>, powerState: string): Promise<void> {
    const before = (await getVm()).state;
    for (const [action, detail] of Object.entries(refusals)) {
      const method = action === 'web_console' ? 'GET' : 'POST';
      const answer = await market.api.call('project-admin', method, vmPath(`${action}/`));
      expect({ action, status: answer.status, body: answer.body }).toEqual({
        action,
        status: 409,
        body: { detail },
      });
    }
    expect((await inVcsim()).powerState).toBe(powerState);
    expect((await getVm()).state).toBe(before);
  }

  it('refuses start on the running VM with the reason, the VM left as it was', async () => {
    await refusesAll(
      { start: 'The virtual machine must be POWERED_OFF or SUSPENDED to start; it is POWERED_ON.' },
      'poweredOn',
    );
  });

  it('shuts the guest down with VMware Tools running: 202, done with POWERED_OFF on SSE, poweredOff in vcsim', async () => {
    await setGuestToolsStatus(vim, ref(), 'guestToolsRunning');
    const operation = await act('shutdown_guest');
    const ended = await operationEnd(project, operation);
    expect(ended.operation).toMatchObject({ uuid: operation.uuid, state: 'done', error_message: '' });
    expect(ended).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
    expect((await inVcsim()).powerState).toBe('poweredOff');
    expect(await getVm()).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
  });

  it('refuses stop, suspend, reset, guest power and web_console on the powered-off VM, each with its reason', async () => {
    const guest =
      'The virtual machine must be POWERED_ON for its guest to shut down or reboot; it is POWERED_OFF.';
    await refusesAll(
      {
        stop: 'The virtual machine must be POWERED_ON or SUSPENDED to stop; it is POWERED_OFF.',
        suspend: 'The virtual machine must be POWERED_ON to suspend; it is POWERED_OFF.',
        reset: 'The virtual machine must be POWERED_ON to reset; it is POWERED_OFF.',
        shutdown_guest: guest,
        reboot_guest: guest,
        web_console: 'The virtual machine must be POWERED_ON for a web console; it is POWERED_OFF.',
      },
      'poweredOff',
    );
  });

  it('starts, suspends and stops the VM from SUSPENDED, then starts it again: each state in vcsim and on SSE', async () => {
    for (const [action, runtime, power] of [
      ['start', 'POWERED_ON', 'poweredOn'],
      ['suspend', 'SUSPENDED', 'suspended'],
      ['stop', 'POWERED_OFF', 'poweredOff'],
      ['start', 'POWERED_ON', 'poweredOn'],
    ]) {
      const operation = await act(action);
      const ended = await operationEnd(project, operation);
      expect({ action, state: ended.operation?.state, runtime: ended.runtime_state }).toEqual({
        action,
        state: 'done',
        runtime,
      });
      expect({ action, power: (await inVcsim()).powerState }).toEqual({ action, power });
    }
  });

  it("ends a guest reboot vCenter refuses (vcsim has no RebootGuest) erred, with vCenter's message on the VM (ERRED), the VM still running", async () => {
    await setGuestToolsStatus(vim, ref(), 'guestToolsRunning');
    const operation = await act('reboot_guest');
    const ended = await operationEnd(project, operation);
    expect(ended.operation).toMatchObject({ uuid: operation.uuid, state: 'erred' });
    const message = ended.operation?.error_message ?? '';
    // vcsim's MethodNotFound, as vCenter's own fault reaches the user.
    expect(message).toBe(`VirtualMachine:${vm.backend_id} does not implement: RebootGuest`);
    expect(ended).toMatchObject({ state: 'ERRED', error_message: message, runtime_state: 'POWERED_ON' });
    expect(await getVm()).toMatchObject({ state: 'ERRED', error_message: message });
    expect((await inVcsim()).powerState).toBe('poweredOn');
  });

  it('refuses a disk on the Erred VM (409 with the valid states); a pull clears the VM to OK', async () => {
    const before = (await inVcsim()).devices.length;
    const refused = await market.api.call('project-admin', 'POST', vmPath('create_disk/'), { size: 1024 });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409,
      body: { detail: 'Valid states for operation: OK, Updating.' },
    });
    expect((await inVcsim()).devices.length).toBe(before);
    const pull = await act('pull');
    expect(await operationEnd(project, pull)).toMatchObject({
      state: 'OK',
      error_message: '',
      operation: { state: 'done' },
    });
  });

  it('adds a disk on the NVMe controller of a VM that has no other: OK, and on that controller in vcsim', async () => {
    await makeNvmeOnlyVm(vim, ref());
    const nvme = (await inVcsim()).devices.find((d) => d.kind === 'nvme');
    expect(nvme).toBeDefined();
    const answer = await market.api.call<Disk>('project-admin', 'POST', vmPath('create_disk/'), {
      size: 1024,
    });
    expect(answer.status).toBe(201);
    const disk = await eventually(
      () => market.api.ok<Disk>('project-admin', 'GET', `/api/vmware-disks/${answer.body.uuid}/`),
      (d) => d.state !== 'CREATING',
      30_000,
      'the disk to settle',
    );
    expect(disk).toMatchObject({ state: 'OK', size: 1024, error_message: '' });
    const inSim = (await inVcsim()).devices.find((d) => String(d.key) === disk.backend_id);
    expect(inSim).toMatchObject({
      kind: 'disk',
      controllerKey: nvme?.key,
      unitNumber: 0,
      capacityInKB: 1024 * 1024,
    });
    // The SCSI disks went with their controller in vCenter: the read-back dropped them.
    const now = await getVm();
    expect(now).toMatchObject({ state: 'OK', error_message: '', disk: 1024 });
    expect(now.disks.map((d) => d.uuid)).toEqual([disk.uuid]);
    // The marketplace resource's limits follow the VM: its disk total is the NVMe disk alone.
    const resource = await eventually(
      () =>
        market.api.ok<Json>(
          'project-admin',
          'GET',
          `/api/marketplace-resources/${vm.marketplace_resource_uuid}/`,
        ),
      (r) => (r.limits as Json).disk === 1024,
      30_000,
      "the resource's disk limit",
    );
    expect(resource).toMatchObject({ state: 'OK', limits: { cpu: 2, ram: 2048, disk: 1024 } });
  });

  it("errs an adapter vCenter refuses (another task in flight on the VM) with vCenter's message; Destroy removes it (204)", async () => {
    // An administrator's task holds the VM in vCenter: the adapter's ReconfigVM_Task meets TaskInProgress.
    market.sim.front.delayVmTasks(5_000);
    const held = runTask(vim, (o) =>
      vmObject(vim, ref()).reconfigure({ annotation: 'held by an administrator' }, o),
    );
    try {
      await new Promise((r) => setTimeout(r, 500));
      const nics = (await inVcsim()).devices.filter((d) => d.kind === 'nic').length;
      const answer = await market.api.call<Port>('project-admin', 'POST', vmPath('create_port/'), {
        network: `${market.api.base}/api/vmware-networks/${existingVmNetwork.uuid}/`,
      });
      expect(answer.status).toBe(201);
      const erred = await eventually(
        () => market.api.ok<Port>('project-admin', 'GET', `/api/vmware-ports/${answer.body.uuid}/`),
        (p) => p.state !== 'CREATING',
        30_000,
        'the adapter to settle',
      );
      expect(erred).toMatchObject({
        state: 'ERRED',
        backend_id: '',
        error_message: 'Another task is already in progress.',
      });
      expect((await inVcsim()).devices.filter((d) => d.kind === 'nic').length).toBe(nics);
      const destroy = await market.api.call('project-admin', 'DELETE', `/api/vmware-ports/${erred.uuid}/`);
      expect({ status: destroy.status, text: destroy.text }).toEqual({ status: 204, text: '' });
      expect((await market.api.call('project-admin', 'GET', `/api/vmware-ports/${erred.uuid}/`)).status).toBe(
        404,
      );
      expect((await getVm()).ports.map((p) => p.uuid)).not.toContain(erred.uuid);
    } finally {
      await held;
      market.sim.front.delayVmTasks(0);
    }
  });

  it("streams every runtime change to the VM's project member and none to another organisation's user", () => {
    const changes = vmChanges(project, vm.uuid);
    // Each runtime state the VM went through, in order, as the member's stream recorded it.
    const transitions = changes.reduce<string[]>(
      (seen, c: VmChangedData) => (seen.at(-1) === c.runtime_state ? seen : [...seen, c.runtime_state]),
      [],
    );
    expect(transitions).toEqual([
      'POWERED_ON',
      'POWERED_OFF',
      'POWERED_ON',
      'SUSPENDED',
      'POWERED_OFF',
      'POWERED_ON',
    ]);
    // The outsider's stream shared the feed all along: the project member's events came first.
    expect(outsider.data('VmChanged')).toEqual([]);
  });
});
