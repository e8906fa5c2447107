import { CommanderError } from 'commander';
import { buildProgram } from './program';

interface Call {
  id: string;
  args: string[];
  options: Record<string, unknown>;
}

async function parse(...argv: string[]): Promise<Call> {
  const calls: Call[] = [];
  const program = buildProgram(async (id, args, options) => {
    calls.push({ id, args, options });
    return Promise.resolve();
  });
  program.configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  await program.parseAsync(argv, { from: 'user' });
  expect(calls).toHaveLength(1);
  return calls[0];
}

describe('waldur-cli argument parsing', () => {
  it('gives a leaf its id, arguments, and the global options written after it', async () => {
    const call = await parse(
      'marketplace',
      'order',
      'wait',
      'abc',
      '--jmespath',
      "state=='done'",
      '--format',
      'json',
    );
    expect(call).toMatchObject({
      id: 'marketplace order wait',
      args: ['abc'],
      options: { jmespath: "state=='done'", format: 'json', timeout: 600, interval: 3 },
    });
  });

  it('collects repeated --filter flags in order', async () => {
    const call = await parse(
      'marketplace',
      'offering',
      'list',
      '--filter',
      'type=VMware.VirtualMachine',
      '--filter',
      'name=x',
    );
    expect(call.options.filter).toEqual(['type=VMware.VirtualMachine', 'name=x']);
  });

  it('reads the order flow flags of provision: --no-wait, --timeout, --interval, --dry-run', async () => {
    const call = await parse(
      'marketplace',
      'resource',
      'provision',
      '--request-file',
      'vm.yaml',
      '--no-wait',
      '--timeout',
      '300',
      '--interval',
      '10',
      '--dry-run',
    );
    expect(call.options).toMatchObject({
      requestFile: 'vm.yaml',
      wait: false,
      timeout: 300,
      interval: 10,
      dryRun: true,
    });
    expect((await parse('vmware', 'vm', 'provision', '--request', '{}')).options.wait).toBe(true);
  });

  it('takes --generate-skeleton with or without a format, and only json or yaml', async () => {
    expect(
      (await parse('vmware', 'vm', 'provision', '--generate-skeleton', 'yaml')).options.generateSkeleton,
    ).toBe('yaml');
    expect(
      (await parse('marketplace', 'resource', 'provision', '--generate-skeleton')).options.generateSkeleton,
    ).toBe(true);
    await expect(parse('vmware', 'vm', 'provision', '--generate-skeleton', 'xml')).rejects.toBeInstanceOf(
      CommanderError,
    );
  });

  it('refuses an unknown flag, a missing argument, a bad number or format before running anything', async () => {
    await expect(parse('marketplace', 'offering', 'list', '--bogus')).rejects.toThrow(
      /unknown option '--bogus'/,
    );
    await expect(parse('marketplace', 'order', 'get')).rejects.toThrow(/missing required argument 'uuid'/);
    await expect(parse('marketplace', 'order', 'wait', 'x', '--timeout', 'soon')).rejects.toThrow(
      /--timeout must be a number/,
    );
    await expect(parse('marketplace', 'order', 'wait', 'x', '--interval', '0')).rejects.toThrow(/≥ 1/);
    await expect(parse('--format', 'xml', 'marketplace', 'order', 'list')).rejects.toThrow(
      /Allowed choices are json, yaml, table/,
    );
  });

  it("takes a provider's offering actions with their body", async () => {
    const call = await parse(
      'marketplace',
      'provider-offering',
      'update-integration',
      'u',
      '--request',
      '{"service_attributes": {}}',
    );
    expect(call).toMatchObject({ id: 'marketplace provider-offering update-integration', args: ['u'] });
    expect(call.options.request).toBe('{"service_attributes": {}}');
  });

  it('names the order actions with their leaf ids', async () => {
    expect((await parse('marketplace', 'order', 'approve-by-provider', 'u')).id).toBe(
      'marketplace order approve-by-provider',
    );
    expect((await parse('marketplace', 'resource', 'terminate', 'u', '--request', '{"a":1}')).args).toEqual([
      'u',
    ]);
  });

  it('gives the typed OpenStack commands the order flow, browse and wait of the seed', async () => {
    expect(
      await parse('openstack', 'tenant', 'provision', '--request-file', 'vpc.yaml', '--no-wait'),
    ).toMatchObject({
      id: 'openstack tenant provision',
      options: { requestFile: 'vpc.yaml', wait: false, timeout: 600, interval: 3 },
    });
    expect(
      (await parse('openstack', 'instance', 'provision', '--generate-skeleton', 'yaml')).options
        .generateSkeleton,
    ).toBe('yaml');
    expect(
      await parse('openstack', 'instance', 'terminate', 'u', '--request', '{"delete_volumes": true}'),
    ).toMatchObject({ id: 'openstack instance terminate', args: ['u'] });
    expect(await parse('openstack', 'instance', 'wait', 'u', '--jmespath', "state=='OK'")).toMatchObject({
      id: 'openstack instance wait',
      args: ['u'],
      options: { jmespath: "state=='OK'" },
    });
    expect((await parse('openstack', 'volume', 'list', '--filter', 'project_uuid=p')).id).toBe(
      'openstack volume list',
    );
    await expect(parse('openstack', 'volume', 'terminate')).rejects.toThrow(/missing required argument/);
  });

  it("takes staff's assignments with the organisation and one object", async () => {
    expect(
      await parse('vmware', 'assignment', 'add', '--customer', 'c', '--existing-vm-network', 'n'),
    ).toMatchObject({ id: 'vmware assignment add', options: { customer: 'c', existingVmNetwork: 'n' } });
    expect(
      await parse('vmware', 'assignment', 'list', '--kind', 'folders', '--filter', 'customer_uuid=c'),
    ).toMatchObject({
      id: 'vmware assignment list',
      options: { kind: 'folders', filter: ['customer_uuid=c'] },
    });
    await expect(parse('vmware', 'assignment', 'remove', '--cluster', 'x')).rejects.toThrow(
      /required option '--customer <uuid\|url>' not specified/,
    );
  });

  it('reads the day-2 VM commands: numbers as numbers, --wait off unless asked, required options', async () => {
    expect(await parse('vmware', 'disk', 'create', '--vm', 'v', '--size', '1024', '--wait')).toMatchObject({
      id: 'vmware disk create',
      options: { vm: 'v', size: 1024, wait: true, timeout: 600 },
    });
    expect(await parse('vmware', 'vm', 'update', 'u', '--cores-per-socket', '2')).toMatchObject({
      id: 'vmware vm update',
      args: ['u'],
      options: { coresPerSocket: 2 },
    });
    expect((await parse('vmware', 'vm', 'shutdown-guest', 'u')).options.wait).toBeUndefined();
    await expect(parse('vmware', 'vm', 'update', 'u', '--ram', 'lots')).rejects.toThrow(
      /--ram must be a whole number/,
    );
    await expect(parse('vmware', 'port', 'create', '--vm', 'v')).rejects.toThrow(
      /required option '--network/,
    );
    expect((await parse('vmware', 'port', 'list', '--filter', 'vm_uuid=v')).id).toBe('vmware port list');
  });
});
