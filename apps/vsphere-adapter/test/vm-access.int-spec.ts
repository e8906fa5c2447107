import { randomUUID } from 'node:crypto';
import { powerOnVm, readVirtualMachine, type MoRef } from '@app/vim25';
import {
  ACT_REFUSAL,
  type Caller,
  type Page,
  type ProjectRole,
  type RequestReply,
  type VirtualMachineView,
  type VmOperationView,
} from '@app/contracts';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import { callerWith } from './support/callers';
import { answered, deviceRequests, eventually, operationEnded } from './support/device-requests';
import { connectSuiteVcenter, orderVm } from './support/device-suite';
import { ask, staff } from './support/requests';

jest.setTimeout(180_000);

/**
 * Issue 20's first finding, against the adapter on vcsim: one organisation with two projects, a VM
 * ordered in P1, and callers holding each role. Before the fix the adapter decided by organisation,
 * so a member of P2 alone listed, read, stopped and opened the console of P1's VM.
 */
describe('VM access per project and role: the same decision as ordering', () => {
  let suite: AdapterSuite;
  const offering = randomUUID();
  const customer = randomUUID();
  const [p1, p2] = [randomUUID(), randomUUID()];
  let vmUuid: string;
  let ref: MoRef;

  const inProject = (project: string, role: ProjectRole): Caller =>
    callerWith({ projects: [[project, customer, role]] });
  const send = <T>(pattern: string, caller: Caller, body: object = {}, query: object = {}) =>
    ask<T>(suite.client, pattern, { caller, params: { uuid: vmUuid }, query, body });
  const list = (caller: Caller) =>
    ask<Page<VirtualMachineView>>(suite.client, 'vsphere.vm.list', {
      caller,
      params: {},
      query: { page_size: 100 },
      body: {},
    });
  const listed = async (caller: Caller) => answered(await list(caller)).items.map((vm) => vm.uuid);
  const code = (reply: RequestReply<unknown>) => (reply.status === 'ok' ? 'ok' : reply.code);

  /** Waits for every operation on the VM to end, then powers it on in vCenter if it is off. */
  const poweredOn = async () => {
    const unfinished = (): Promise<{ n: number }[]> =>
      suite.adapter.runtime.dataSource.query(
        `SELECT count(*)::int AS "n" FROM "vsphere"."vm_operations" o
         JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid"
         WHERE v."backend_uuid" = $1 AND o."state" NOT IN ('done', 'erred')`,
        [vmUuid],
      );
    await eventually(unfinished, (rows) => rows[0].n === 0);
    if ((await readVirtualMachine(suite.library.connection, ref))?.powerState !== 'poweredOn')
      await powerOnVm(suite.library.connection, ref);
  };

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_vm_access',
      namespace: 'adaptervmaccess',
      env: { VSPHERE_DEPLOY_TIMEOUT_MS: '60000', VSPHERE_OPERATION_POLL_MS: '300' },
    });
    await suite.library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    const inv = await connectSuiteVcenter(suite, offering);
    ({ vmUuid, ref } = await orderVm(suite, {
      offering,
      customer,
      project: p1,
      name: 'p1-vm',
      template: inv.templates.get('Ubuntu-22.04')!,
      network: inv.networks.get('DC0_DVPG0')!,
    }));
    await poweredOn();
  });

  afterAll(() => stopAdapterSuite(suite ?? {}));

  describe('a PROJECT.MEMBER of P2 only, in the same organisation: P1’s VM does not exist for them', () => {
    const outsider = () => inProject(p2, 'PROJECT.MEMBER');

    it('the list does not hold it; get, stop, console and web console answer 404 as for a missing VM', async () => {
      const caller = outsider();
      expect(await listed(staff())).toContain(vmUuid);
      expect(await listed(caller)).not.toContain(vmUuid);
      const missing = { status: 'error', code: 404, detail: 'Not found.' };
      expect(await send('vsphere.vm.get', caller)).toEqual(missing);
      expect(await send('vsphere.vm.stop', caller)).toEqual(missing);
      expect(await send('vsphere.vm.console', caller)).toEqual(missing);
      expect(await send('vsphere.vm.web_console', caller)).toEqual(missing);
      expect(await send('vsphere.vm.pull', caller)).toEqual(missing);
      expect(await send('vsphere.vm.update', caller, { ram: 2048 })).toEqual(missing);
      // The VM was not touched: still on, and no operation was queued for it.
      expect((await readVirtualMachine(suite.library.connection, ref))?.powerState).toBe('poweredOn');
    });

    it('its disks and ports are hidden too: listed for nobody, created by nobody', async () => {
      const devices = deviceRequests(suite.client, outsider(), vmUuid);
      expect(answered(await devices.disks()).items).toEqual([]);
      expect(answered(await devices.ports()).items).toEqual([]);
      expect(await devices.createDisk(1024)).toMatchObject({ status: 'error', code: 404 });
      const disk = answered(await deviceRequests(suite.client, staff(), vmUuid).disks()).items[0];
      expect(await devices.disk(disk.uuid)).toMatchObject({ status: 'error', code: 404 });
      expect(await devices.extend(disk.uuid, 20_000)).toMatchObject({ status: 'error', code: 404 });
      expect(await devices.deleteDisk(disk.uuid)).toMatchObject({ status: 'error', code: 404 });
    });

    it('a manager of P2 fares no better', async () => {
      const caller = inProject(p2, 'PROJECT.MANAGER');
      expect(await listed(caller)).not.toContain(vmUuid);
      expect(code(await send('vsphere.vm.stop', caller))).toBe(404);
    });
  });

  describe('a PROJECT.MEMBER of P1: reads, does not act', () => {
    it('get 200; stop, console, resize, disk create 403 with the reason', async () => {
      const caller = inProject(p1, 'PROJECT.MEMBER');
      expect(await listed(caller)).toEqual([vmUuid]);
      expect(answered(await send<VirtualMachineView>('vsphere.vm.get', caller)).uuid).toBe(vmUuid);
      const forbidden = { status: 'error', code: 403, detail: ACT_REFUSAL };
      expect(await send('vsphere.vm.stop', caller)).toEqual(forbidden);
      expect(await send('vsphere.vm.console', caller)).toEqual(forbidden);
      expect(await send('vsphere.vm.web_console', caller)).toEqual(forbidden);
      expect(await send('vsphere.vm.update', caller, { ram: 2048 })).toEqual(forbidden);
      expect(await deviceRequests(suite.client, caller, vmUuid).createDisk(1024)).toEqual(forbidden);
      expect((await readVirtualMachine(suite.library.connection, ref))?.powerState).toBe('poweredOn');
    });
  });

  describe('who orders in P1 acts on its VM', () => {
    it.each<[string, () => Caller]>([
      ['a P1 admin', () => inProject(p1, 'PROJECT.ADMIN')],
      ['a P1 manager', () => inProject(p1, 'PROJECT.MANAGER')],
      ['the organisation’s owner', () => callerWith({ owned: [customer] })],
    ])('%s: stop 202, carried out in vCenter', async (_name, caller) => {
      await poweredOn();
      const operation = answered(await send<VmOperationView>('vsphere.vm.stop', caller()));
      expect(await operationEnded(suite.adapter.runtime.dataSource, operation.uuid)).toMatchObject({
        state: 'done',
      });
      expect((await readVirtualMachine(suite.library.connection, ref))?.powerState).toBe('poweredOff');
    });
  });

  it('refuses a request that names a user instead of carrying a token, and a token nobody issued', async () => {
    const asserted = await ask(suite.client, 'vsphere.vm.get', {
      caller: { user_uuid: randomUUID(), is_staff: true, owned_customer_uuids: [], project_grants: [] },
      params: { uuid: vmUuid },
      query: {},
      body: {},
    });
    expect(asserted).toMatchObject({ status: 'error', code: 400 });
    expect(await send('vsphere.vm.get', { token: 'forged' })).toMatchObject({ status: 'error', code: 401 });
  });
});
