import { randomUUID } from 'node:crypto';
import { destroyVm, powerOffVm, readVirtualMachines, type VmInfo } from '@app/vim25';
import type { TestDatabase } from '../../../test/support/test-database';
import type { TestNats } from '../../../test/support/test-nats';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { VcenterAccessService } from '../src/integration/services/vcenter-access.service';
import { VmPullService } from '../src/machines/services/vm-pull.service';
import { VM_PROVISIONER, type VmProvisioner } from '../src/vcenter/ports/vm-provisioner.port';
import type { AdapterInstance } from './support/adapter-harness';
import { startAdapterSuite, stopAdapterSuite } from './support/adapter-suite';
import { saveAndSettle, type RequestClient } from './support/requests';
import type { VcsimLibrary } from './support/vcsim-library';

jest.setTimeout(120_000);

/**
 * The periodic pull reads vCenter two VMs a page: vcsim's VMs (6 with `-vm 3`) recorded in the
 * adapter's table as orders would have left them, then a change on the last page and a VM
 * deleted, both recorded by one pull.
 */
describe('the periodic pull, page by page', () => {
  let sim: VcsimWithFront;
  let db: TestDatabase;
  let nats: TestNats;
  let adapter: AdapterInstance;
  let client: RequestClient;
  let library: VcsimLibrary;
  const offering = randomUUID();
  let vms: VmInfo[];

  const rowOf = async (info: VmInfo) => {
    const [row]: { runtime_state: string; state: string; error_message: string }[] =
      await adapter.runtime.dataSource.query(
        `SELECT "runtime_state", "state", "error_message" FROM "vsphere"."virtual_machines" WHERE "backend_uuid" = $1`,
        [info.instanceUuid],
      );
    return row;
  };

  /** The sizes of the pages the pull's read gets from vcsim. */
  const pageSizes = async (): Promise<number[]> => {
    const access = (await adapter.app.get(VcenterAccessService).forOffering(offering))!;
    const sizes: number[] = [];
    for await (const page of adapter.app
      .get<VmProvisioner>(VM_PROVISIONER)
      .readPages(await access.connection(), {
        pageSize: 2,
        timeoutMs: 30_000,
        signal: AbortSignal.timeout(30_000),
      }))
      sizes.push(page.length);
    return sizes;
  };

  beforeAll(async () => {
    ({ sim, db, nats, adapter, client, library } = await startAdapterSuite({
      database: 'adapter_vm_pull_pages',
      namespace: 'adaptervmpullpages',
      vcsim: { args: ['-vm', '3'] },
      env: {
        VSPHERE_VM_PULL_PAGE_SIZE: '2',
        // Only the pulls this suite asks for, and no live subscription recording anything.
        VSPHERE_VM_PULL_INTERVAL_MS: '0',
        VSPHERE_VM_WATCH: 'false',
      },
    }));
    await saveAndSettle(client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: sim.password,
      ca_pem: sim.caPem,
      default_cluster_label: 'DC0_C0',
    });
    // In the order a pull reads them: the view's order.
    vms = (await readVirtualMachines(library.connection)).filter((vm) => !vm.template);
    for (const info of vms)
      await adapter.runtime.dataSource.query(
        `INSERT INTO "vsphere"."virtual_machines" ("uuid", "offering_uuid", "order_uuid", "resource_uuid",
           "customer_uuid", "project_uuid", "backend_uuid", "moref", "name", "cpu", "cores_per_socket", "ram",
           "disk", "runtime_state")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, 0, 'POWERED_ON')`,
        [
          randomUUID(),
          offering,
          randomUUID(),
          randomUUID(),
          randomUUID(),
          randomUUID(),
          info.instanceUuid,
          info.ref.value,
          info.name,
          info.numCPU ?? 1,
          info.memoryMB ?? 1024,
        ],
      );
  });

  afterAll(() => stopAdapterSuite({ adapter, client, library, sim, nats, db }));

  it('records a change on a later page and a VM gone, reading two VMs a page', async () => {
    expect(vms.length).toBeGreaterThanOrEqual(5);
    const pulls = adapter.app.get(VmPullService);
    // The first pull records each VM's devices; the second finds nothing changed.
    expect(await pulls.pullOffering(offering)).toBe(vms.length);
    expect(await pulls.pullOffering(offering)).toBe(0);

    const last = vms[vms.length - 1];
    const deleted = vms[0];
    await powerOffVm(library.connection, last.ref);
    await powerOffVm(library.connection, deleted.ref);
    await destroyVm(library.connection, deleted.ref);
    // vcsim pages as vCenter does: the VMs left come two a page, the last one on the last page.
    const sizes = await pageSizes();
    expect(sizes).toEqual(
      Array(Math.ceil((vms.length - 1) / 2))
        .fill(2)
        .fill(vms.length % 2 === 0 ? 1 : 2, -1),
    );

    expect(await pulls.pullOffering(offering)).toBe(2);
    expect(await rowOf(last)).toMatchObject({ runtime_state: 'POWERED_OFF', state: 'OK' });
    expect(await rowOf(deleted)).toMatchObject({ state: 'ERRED' });
    expect((await rowOf(deleted)).error_message).not.toBe('');
    // The VMs between them are as they were.
    for (const info of vms.slice(1, -1))
      expect(await rowOf(info)).toMatchObject({ runtime_state: 'POWERED_ON', state: 'OK' });
  });
});
