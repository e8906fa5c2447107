import { readVirtualMachines, type VimConnection, type VirtualDisk } from '@app/vim25';
import type { Answer, Json } from '../support/api-session';
import type { SseClient } from '../support/sse-client';
import {
  eventually,
  operationEnd,
  orderVm,
  vmChanges,
  vmWatchers,
  type Disk,
  type Operation,
  type Vm,
} from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(300_000);

interface Quota {
  name: string;
  limit: number;
  usage: number;
}
type WithQuotas = Json & { quotas: Quota[] };

/**
 * Quotas on the changes made through a VM's own endpoints, which go to the vSphere adapter and not
 * through orders, on vcsim: a disk that would pass the project's storage quota refused at once with
 * the quota, its limit, the usage and the request; one within it accepted and counted once (while
 * it is being made, and after, as the VM's recorded size); concurrent disks against room for three:
 * exactly three accepted; an extend and a resize (vCPU) past the quota refused, one within accepted
 * and counted. The tests run in order on one VM.
 */
describe('quotas on a VM’s own endpoints end to end', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let vm: Vm;
  let project: SseClient;
  let outsider: SseClient;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('vmquotas');
    vim = await market.vim();
    vm = await orderVm(market, 'e2e-vm-quota-1', await market.vmPlacement());
    ({ project, outsider } = await vmWatchers(market));
  });

  afterAll(async () => {
    project?.close();
    outsider?.close();
    await market?.stop();
  });

  const vmPath = (suffix = '') => `/api/vmware-virtual-machine/${vm.uuid}/${suffix}`;
  const projectQuotas = () =>
    market.api.ok<WithQuotas>('member', 'GET', `/api/projects/${market.project.uuid}/`);
  const usage = async (name: string) => (await projectQuotas()).quotas.find((q) => q.name === name)!.usage;
  const setProjectQuotas = (limits: Record<string, number>) =>
    market.api.ok<WithQuotas>('member', 'POST', `/api/projects/${market.project.uuid}/set_quotas/`, limits);
  const disksInVcsim = async () => {
    const info = (await readVirtualMachines(vim)).find((candidate) => candidate.instanceUuid === vm.uuid);
    if (!info) throw new Error(`${vm.name} is not in vcsim`);
    return info.devices.filter((d): d is VirtualDisk => d.kind === 'disk');
  };
  const createDisk = (size: number) =>
    market.api.call<Disk>('member', 'POST', vmPath('create_disk/'), { size });
  const diskOk = (uuid: string) =>
    project.waitFor(
      () => vmChanges(project, vm.uuid).some((c) => c.disks.some((d) => d.uuid === uuid && d.state === 'OK')),
      30_000,
      `disk ${uuid} OK`,
    );
  const getVm = () => market.api.ok<Vm>('member', 'GET', vmPath());
  const storageMessage = (limit: number, used: number, asked: number) =>
    `Project quota for storage (MiB) is ${limit}; ${used} ${used === 1 ? 'is' : 'are'} in use or ordered; this request asks for ${asked}.`;

  let storageLimit: number;
  let added: Disk;

  it("refuses a disk that would pass the project's storage quota with the quota, its limit, the usage and the request", async () => {
    const used = await usage('storage');
    // The ordered VM's disk is what the project uses.
    expect(used).toBe((await getVm()).disk);
    storageLimit = used + 2048 + 3 * 1024;
    await setProjectQuotas({ storage: storageLimit });
    const before = (await disksInVcsim()).length;

    const refused = await createDisk(2048 + 3 * 1024 + 1);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { size: [storageMessage(storageLimit, used, 2048 + 3 * 1024 + 1)] },
    });
    expect((await disksInVcsim()).length).toBe(before);
    expect((await getVm()).disks.some((d) => d.size === 2048 + 3 * 1024 + 1)).toBe(false);
    expect(await usage('storage')).toBe(used);
  });

  it('accepts a disk within the quota and counts it once: reserved while it is made, then as the VM’s size', async () => {
    const used = await usage('storage');
    const answer = await createDisk(2048);
    expect(answer.status).toBe(201);
    added = answer.body;
    // Counted from the answer on, before the adapter has made it.
    expect(await usage('storage')).toBeGreaterThanOrEqual(used + 2048);
    await diskOk(added.uuid);
    const recorded = await eventually(
      getVm,
      (v) => v.disk === used + 2048,
      30_000,
      'the VM recorded with the disk',
    );
    // The reservation is released as the VM's recorded size takes over: counted once, not twice.
    await eventually(
      () => usage('storage'),
      (storage) => storage === recorded.disk,
      30_000,
      'the project counting the disk once',
    );
    expect((await disksInVcsim()).some((d) => d.capacityInKB === 2048 * 1024)).toBe(true);
  });

  it('accepts exactly three of eight concurrent disks against room for three', async () => {
    const used = await usage('storage');
    expect(storageLimit - used).toBe(3 * 1024);
    const answers: Answer<Disk>[] = await Promise.all(Array.from({ length: 8 }, () => createDisk(1024)));
    const statuses = answers.map((a) => a.status).sort();
    console.log(`vm quota race: statuses ${JSON.stringify(statuses)}`);
    expect(statuses).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400))
      expect((refused.body as Json as Record<string, string[]>).size[0]).toMatch(
        new RegExp(
          `^Project quota for storage \\(MiB\\) is ${storageLimit}; \\d+ are in use or ordered; this request asks for 1024\\.$`,
        ),
      );
    for (const accepted of answers.filter((a) => a.status === 201)) await diskOk(accepted.body.uuid);
    await eventually(
      () => usage('storage'),
      (storage) => storage === storageLimit,
      30_000,
      'the quota filled exactly',
    );
  });

  it('refuses an extend past the storage quota, and takes one within it once room was given', async () => {
    const refused = await market.api.call<Record<string, string[]>>(
      'member',
      'POST',
      `/api/vmware-disks/${added.uuid}/extend/`,
      { size: 4096 },
    );
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { size: [storageMessage(storageLimit, storageLimit, 2048)] },
    });
    storageLimit += 2048;
    await setProjectQuotas({ storage: storageLimit });
    const extend = await market.api.call<Operation>(
      'member',
      'POST',
      `/api/vmware-disks/${added.uuid}/extend/`,
      {
        size: 4096,
      },
    );
    expect(extend.status).toBe(202);
    const ended = await operationEnd(project, extend.body);
    expect(ended.operation).toMatchObject({ state: 'done' });
    await eventually(
      () => usage('storage'),
      (storage) => storage === storageLimit,
      30_000,
      'the extend counted once',
    );
  });

  it("refuses a resize past the project's vCPU quota (400 naming cores), and counts one within it", async () => {
    const stop = await market.api.call<Operation>('member', 'POST', vmPath('stop/'));
    expect(stop.status).toBe(202);
    expect((await operationEnd(project, stop.body)).operation).toMatchObject({ state: 'done' });
    const cores = (await getVm()).cores;
    expect(await usage('vcpu')).toBe(cores);
    await setProjectQuotas({ vcpu: cores + 1 });

    const refused = await market.api.call<Record<string, string[]>>('member', 'PATCH', vmPath(), {
      cores: cores + 2,
    });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: {
        cores: [
          `Project quota for vCPU is ${cores + 1}; ${cores} are in use or ordered; this request asks for 2.`,
        ],
      },
    });
    expect((await getVm()).cores).toBe(cores);

    const resize = await market.api.call<Operation>('member', 'PATCH', vmPath(), { cores: cores + 1 });
    expect(resize.status).toBe(202);
    expect(await operationEnd(project, resize.body)).toMatchObject({ cores: cores + 1 });
    await eventually(
      () => usage('vcpu'),
      (vcpu) => vcpu === cores + 1,
      30_000,
      'the resize counted once',
    );
    // A shrink grows nothing: accepted even with the quota full.
    const shrink = await market.api.call<Operation>('member', 'PATCH', vmPath(), { cores });
    expect(shrink.status).toBe(202);
    expect((await operationEnd(project, shrink.body)).operation).toMatchObject({ state: 'done' });
  });
});
