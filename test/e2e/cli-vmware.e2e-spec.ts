import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readVirtualMachines, type VimConnection, type VmInfo } from '@app/vim25';
import type { Json } from '../support/api-session';
import { runCli, type CliResult } from '../support/cli-process';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(240_000);

type Named = Json & { uuid: string; name: string };

/**
 * `waldur-cli`'s day-2 VM commands as a process against the whole system on vcsim: staff assign a
 * network and a folder, a member provisions a VM, then stops, resizes and starts it, adds, grows and
 * removes a disk, adds and removes a network adapter, each `--wait`ed on the VM's event stream, and
 * each checked on the VM in vcsim. Refusals (vCenter's state, bad input) exit as documented.
 */
describe('waldur-cli vmware day-2 commands against vcsim', () => {
  let market: VsphereMarketplace;
  let vim: VimConnection;
  let network: Named;
  let vmUuid = '';
  const dir = mkdtempSync(join(tmpdir(), 'waldur-cli-day2-'));
  const as = (who: string) => ({
    WALDUR_API_URL: market.api.base,
    WALDUR_TOKEN: market.api.tokens[who],
    WALDUR_CLI_CONFIG: join(dir, `${who}.yaml`),
    WALDUR_PROJECT: market.project.uuid,
  });
  const member = (args: string[]) => runCli([...args, '--format', 'json'], as('member'));
  const json = (result: CliResult): Json => {
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Json;
  };

  /** The VM in vcsim, by the instance uuid the API names it with. */
  async function inVcsim(): Promise<VmInfo> {
    const found = (await readVirtualMachines(vim)).find((vm) => vm.instanceUuid === vmUuid);
    if (!found) throw new Error(`VM ${vmUuid} is not in vcsim`);
    return found;
  }

  beforeAll(async () => {
    market = await VsphereMarketplace.start('cli-day2');
    vim = await market.vim();
    network = (await market.inventory('vmware-networks')).find((n) => n.name === 'DC0_DVPG0') as Named;
    const folder = (await market.inventory('vmware-folders'))[0];
    for (const [option, uuid] of [
      ['--network', network.uuid],
      ['--existing-vm-network', network.uuid],
      ['--folder', folder.uuid],
    ])
      json(
        await runCli(
          [
            'vmware',
            'assignment',
            'add',
            '--customer',
            market.customer.uuid,
            option,
            uuid,
            '--format',
            'json',
          ],
          as('staff'),
        ),
      );
    const base = market.api.base;
    const resource = json(
      await member([
        'vmware',
        'vm',
        'provision',
        '--request',
        JSON.stringify({
          offering: `${base}/api/marketplace-public-offerings/${market.offering.uuid}/`,
          plan: (market.offering.plans[0] as Json).url,
          attributes: {
            name: 'cli-day2-1',
            template: market.templates[0].uuid,
            cores_per_socket: 1,
            networks: [{ url: network.uuid }],
            folder: folder.uuid,
          },
          limits: { cpu: 1, ram: 1024 },
        }),
      ]),
    );
    vmUuid = resource.resource_uuid as string;
  });
  afterAll(() => market?.stop());

  it('lists and gets the VM by its instance uuid, with its marketplace resource', async () => {
    expect(json(await member(['vmware', 'vm', 'list', '--jmespath', '[].uuid']))).toEqual([vmUuid]);
    expect(json(await member(['vmware', 'vm', 'get', vmUuid]))).toMatchObject({
      uuid: vmUuid,
      name: 'cli-day2-1',
      runtime_state: 'POWERED_ON',
    });
    expect(json(await member(['vmware', 'vm', 'get', vmUuid])).marketplace_resource_uuid).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    // The web console: a single-use ticket for this VM; the VMRC link (no ticket) is staff's only.
    const console = json(await member(['vmware', 'vm', 'console', vmUuid, '--web']));
    expect(console.url).toMatch(/^wss:\/\/[^/]+\/ticket\/[0-9a-f]+$/);
    const vmrc = await member(['vmware', 'vm', 'console', vmUuid]);
    expect(vmrc.code).not.toBe(0);
    expect(vmrc.stderr).toContain('vCenter account of your own');
  });

  it('stops the VM and waits for the operation, resizes it powered off, and starts it again', async () => {
    const stopped = json(await member(['vmware', 'vm', 'stop', vmUuid, '--wait']));
    expect(stopped).toMatchObject({
      runtime_state: 'POWERED_OFF',
      operation: { operation: 'stop', state: 'done' },
    });
    expect((await inVcsim()).powerState).toBe('poweredOff');

    const resized = json(
      await member([
        'vmware',
        'vm',
        'update',
        vmUuid,
        '--cores',
        '2',
        '--cores-per-socket',
        '2',
        '--ram',
        '2048',
        '--wait',
      ]),
    );
    expect(resized).toMatchObject({ cores: 2, ram: 2048, operation: { operation: 'update', state: 'done' } });
    expect(await inVcsim()).toMatchObject({ numCPU: 2, numCoresPerSocket: 2, memoryMB: 2048 });

    // Without --wait: the operation is printed as accepted, and `vm wait` follows the VM.
    const accepted = json(await member(['vmware', 'vm', 'start', vmUuid]));
    expect(accepted).toMatchObject({ operation: 'start', vm_uuid: vmUuid });
    expect(accepted.state).toMatch(/^(pending|running|done)$/);
    const started = json(
      await member([
        'vmware',
        'vm',
        'wait',
        vmUuid,
        '--jmespath',
        "runtime_state=='POWERED_ON' && state=='OK'",
      ]),
    );
    expect(started).toMatchObject({ uuid: vmUuid, runtime_state: 'POWERED_ON' });
    expect((await inVcsim()).powerState).toBe('poweredOn');
  });

  it("refuses what vCenter's state does not allow with its reason (exit 3), and bad input before sending (exit 2)", async () => {
    const again = await member(['vmware', 'vm', 'start', vmUuid]);
    expect(again.code).toBe(3);
    expect((JSON.parse(again.stderr) as Json).error).toMatch(/^409: /);
    const resize = await member(['vmware', 'vm', 'update', vmUuid, '--ram', '4096']);
    expect(resize.code).toBe(3);

    const before = await inVcsim();
    for (const args of [
      ['vmware', 'vm', 'update', vmUuid],
      ['vmware', 'vm', 'update', vmUuid, '--cores', 'two'],
      ['vmware', 'disk', 'create', '--vm', vmUuid, '--size', '0'],
      ['vmware', 'disk', 'create', '--vm', vmUuid],
      ['vmware', 'port', 'create', '--vm', vmUuid],
    ]) {
      const refused = await member(args);
      expect({ args, code: refused.code }).toEqual({ args, code: 2 });
    }
    expect((await inVcsim()).devices.length).toBe(before.devices.length);
  });

  it('adds a disk, grows it and removes it, each waited for and seen in vcsim', async () => {
    const disk = json(await member(['vmware', 'disk', 'create', '--vm', vmUuid, '--size', '1024', '--wait']));
    const made = (disk.disks as Json[]).find((d) => d.size === 1024 && d.state === 'OK');
    expect(made).toBeDefined();
    const diskUuid = made!.uuid as string;
    const key = Number(made!.backend_id);
    const capacity = async () =>
      (await inVcsim()).devices.find((d) => d.kind === 'disk' && d.key === key) as
        { capacityInKB: number } | undefined;
    expect((await capacity())?.capacityInKB).toBe(1024 * 1024);
    expect(
      json(
        await member(['vmware', 'disk', 'list', '--filter', `vm_uuid=${vmUuid}`, '--jmespath', '[].uuid']),
      ),
    ).toContain(diskUuid);

    json(await member(['vmware', 'disk', 'extend', diskUuid, '--size', '2048', '--wait']));
    expect((await capacity())?.capacityInKB).toBe(2048 * 1024);
    expect(json(await member(['vmware', 'disk', 'get', diskUuid]))).toMatchObject({
      size: 2048,
      state: 'OK',
    });

    json(await member(['vmware', 'disk', 'delete', diskUuid, '--wait']));
    expect(await capacity()).toBeUndefined();
  });

  it('adds a network adapter on an assigned network and removes it', async () => {
    const nics = async () => (await inVcsim()).devices.filter((d) => d.kind === 'nic').length;
    const before = await nics();
    const vm = json(
      await member(['vmware', 'port', 'create', '--vm', vmUuid, '--network', network.uuid, '--wait']),
    );
    expect(await nics()).toBe(before + 1);
    const added = (vm.ports as Json[]).find((p) => (vm.operation as Json).port_uuid === p.uuid);
    expect(added).toMatchObject({ network_uuid: network.uuid, state: 'OK' });
    json(await member(['vmware', 'port', 'delete', added!.uuid as string, '--wait']));
    expect(await nics()).toBe(before);
  });

  it('takes a snapshot, lists it, reverts to it and deletes it, each waited for and seen in vcsim', async () => {
    const names = async () => ((await inVcsim()).snapshot?.rootSnapshotList ?? []).map((t) => t.name);
    const vm = json(
      await member(['vmware', 'snapshot', 'create', '--vm', vmUuid, '--name', 'cli-snap', '--wait']),
    );
    expect((vm.operation as Json).operation).toBe('create_snapshot');
    expect(await names()).toEqual(['cli-snap']);
    const [uuid] = json(
      await member(['vmware', 'snapshot', 'list', '--filter', `vm_uuid=${vmUuid}`, '--jmespath', '[].uuid']),
    ) as unknown as string[];
    const shown = json(await member(['vmware', 'snapshot', 'get', uuid]));
    expect(shown).toMatchObject({ name: 'cli-snap', current: true });
    json(await member(['vmware', 'snapshot', 'revert', uuid, '--wait']));
    expect((await inVcsim()).snapshot?.currentSnapshot?.value).toBe(shown.backend_id);
    json(await member(['vmware', 'snapshot', 'delete', uuid, '--wait']));
    expect(await names()).toEqual([]);
  });

  it("prints the VM's latest usage values with their units", async () => {
    const latest = json(
      await member(['vmware', 'vm', 'stats', vmUuid, '--metric', 'cpu,network']),
    ) as unknown as Json[];
    expect(latest.map((l) => [l.metric, l.unit])).toEqual([
      ['cpu', '%'],
      ['network', 'KBps'],
    ]);
    for (const l of latest) expect(typeof l.value).toBe('number');
    const bad = await member(['vmware', 'vm', 'stats', vmUuid, '--period', 'year']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--period');
  });
});
