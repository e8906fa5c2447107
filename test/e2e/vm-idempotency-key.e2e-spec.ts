import { randomUUID } from 'node:crypto';
import { readVirtualMachines, type SnapshotTree, type VimConnection, type VmInfo } from '@app/vim25';
import type { Answer, Json } from '../support/api-session';
import { eventually, orderVm, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

type Named = { uuid: string; name: string };
type Device = Json & { uuid: string; state: string };

/**
 * `Idempotency-Key` on a VM's creating POSTs through the gateway (which forwards the header to the
 * vSphere adapter, the service that commits): the same key and body sent again, as after a lost
 * answer, answer the first answer and vcsim gets one disk, one adapter, one snapshot; the same key
 * with another body is 422. The adapter's own tests cover in-flight requests and refusals.
 */
describe('Idempotency-Key on create_disk, create_port and create_snapshot, through the gateway', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let assigned: Named;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmidem');
    vim = await market.vim();
    const networks = (await market.inventory('vmware-networks')) as Named[];
    assigned = networks.find((n) => n.name === 'VM Network') as Named;
    await market.api.ok('staff', 'POST', '/api/vmware-customer-network-pairs/', {
      customer: market.customer.uuid,
      network: assigned.uuid,
    });
    vm = await orderVm(market, 'e2e-idem-1', await market.vmPlacement());
  });

  afterAll(async () => {
    await market?.stop();
  });

  const vmPath = (suffix: string) => `/api/vmware-virtual-machine/${vm.uuid}/${suffix}`;
  const post = <T>(suffix: string, body: Json, key: string): Promise<Answer<T>> =>
    market.api.call<T>('member', 'POST', vmPath(suffix), body, { 'Idempotency-Key': `"${key}"` });
  const seen = (answer: Answer<unknown>) => ({ status: answer.status, body: answer.body });
  const reused = {
    status: 422,
    body: {
      detail:
        'The Idempotency-Key header was already used with another request; send a new key for a new request.',
    },
  };

  async function inVcsim(): Promise<VmInfo> {
    const info = (await readVirtualMachines(vim)).find((candidate) => candidate.instanceUuid === vm.uuid);
    if (!info) throw new Error(`${vm.name} is not in vcsim`);
    return info;
  }
  const devicesInVcsim = async (kind: 'disk' | 'nic') =>
    (await inVcsim()).devices.filter((d) => d.kind === kind).length;
  const okDevice = (path: string) =>
    eventually(
      () => market.api.ok<Device>('member', 'GET', path),
      (device) => device.state === 'OK',
      60_000,
      `${path} OK`,
    );

  it('create_disk sent again under its key answers the first disk (201) and vcsim has one new disk; another size is 422', async () => {
    const before = await devicesInVcsim('disk');
    const key = randomUUID();
    const first = await post<Device>('create_disk/', { size: 2048 }, key);
    expect(first.status).toBe(201);
    expect(seen(await post('create_disk/', { size: 2048 }, key))).toEqual(seen(first));
    await okDevice(`/api/vmware-disks/${first.body.uuid}/`);
    expect(seen(await post('create_disk/', { size: 2048 }, key))).toEqual(seen(first));
    expect(seen(await post('create_disk/', { size: 3072 }, key))).toEqual(reused);
    expect(await devicesInVcsim('disk')).toBe(before + 1);
  });

  it('create_port sent again under its key answers the first adapter (201) and vcsim has one new NIC; another network is 422', async () => {
    const before = await devicesInVcsim('nic');
    const key = randomUUID();
    const network = `${market.api.base}/api/vmware-networks/${assigned.uuid}/`;
    const first = await post<Device>('create_port/', { network }, key);
    expect(first.status).toBe(201);
    expect(seen(await post('create_port/', { network }, key))).toEqual(seen(first));
    await okDevice(`/api/vmware-ports/${first.body.uuid}/`);
    const other = `${market.api.base}/api/vmware-networks/${randomUUID()}/`;
    expect(seen(await post('create_port/', { network: other }, key))).toEqual(reused);
    expect(await devicesInVcsim('nic')).toBe(before + 1);
  });

  it('create_snapshot sent again under its key answers the first operation (202) and vcsim has one snapshot; another name is 422', async () => {
    const key = randomUUID();
    const first = await post<Json & { uuid: string }>('create_snapshot/', { name: 'once' }, key);
    expect(first.status).toBe(202);
    expect(seen(await post('create_snapshot/', { name: 'once' }, key))).toEqual(seen(first));
    const names = (trees: readonly SnapshotTree[]): string[] =>
      trees.flatMap((tree) => [tree.name, ...names(tree.children)]);
    await eventually(
      async () => names((await inVcsim()).snapshot?.rootSnapshotList ?? []),
      (list) => list.includes('once'),
      60_000,
      'the snapshot in vcsim',
    );
    await eventually(
      () => market.api.ok<Vm>('member', 'GET', vmPath('')),
      (current) => current.state === 'OK',
      60_000,
      'the VM OK again',
    );
    expect(seen(await post('create_snapshot/', { name: 'once' }, key))).toEqual(seen(first));
    expect(seen(await post('create_snapshot/', { name: 'twice' }, key))).toEqual(reused);
    expect(names((await inVcsim()).snapshot?.rootSnapshotList ?? [])).toEqual(['once']);
  });
});
