import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiSession, type Json } from '../support/api-session';
import { ApiSystem } from '../support/api-system';
import { CLI_BIN, runCli, startCli, type CliResult } from '../support/cli-process';
import { vmsOfOrder } from '../../apps/vsphere-adapter/test/support/order-fixture';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

// A cap for a hung run, not a speed target: the seed's command lines take minutes on a loaded machine.
jest.setTimeout(300_000);

type Order = Json & { uuid: string; state: string };

/**
 * `waldur-cli` as a process against the real gateway and order service: the seed's command lines
 * (provisioning-cli.txt) on a `Marketplace.Basic` offering that the provider completes by hand, with
 * their output, exit codes and what they did to the system asserted.
 */
describe('waldur-cli against the running system', () => {
  let system: ApiSystem;
  let api: ApiSession;
  let providerOrg: string;
  let project: string;
  let offering: Json & { uuid: string; url: string; plans: (Json & { url: string })[] };
  const dir = mkdtempSync(join(tmpdir(), 'waldur-cli-'));
  const config = join(dir, 'config.yaml');

  /** The owner of Org A, who orders, with an ambient project set once in the profile file. */
  const owner = () => ({
    WALDUR_API_URL: system.base,
    WALDUR_TOKEN: api.tokens.owner,
    WALDUR_CLI_CONFIG: config,
  });
  const provider = () => ({
    WALDUR_API_URL: system.base,
    WALDUR_TOKEN: api.tokens.provider,
    WALDUR_CLI_CONFIG: join(dir, 'provider.yaml'),
  });
  const cli = (args: string[], env = owner(), stdin?: string) => runCli(args, env, { stdin });

  function orderBody(name: string): Json {
    return { offering: offering.url, plan: offering.plans[0].url, attributes: { name }, limits: { days: 1 } };
  }

  /** `resource provision --no-wait` of a Basic order named `name`: the order placed, its uuid printed alone. */
  async function provisionWithoutWaiting(name: string): Promise<string> {
    const placed = await cli([
      'marketplace',
      'resource',
      'provision',
      '--request',
      JSON.stringify(orderBody(name)),
      '--no-wait',
      '--format',
      'json',
      '--jmespath',
      'uuid',
    ]);
    expect(placed.code).toBe(0);
    const order = placed.stdout.trim();
    expect(order).toMatch(/^[0-9a-f-]{36}$/);
    return order;
  }

  async function orderCount(): Promise<number> {
    const [row] = await api.sql<{ n: number }>('SELECT count(*)::int AS n FROM marketplace.orders');
    return row.n;
  }

  /** The provider's side of a Basic order, through the CLI as well: approve, then complete by hand. */
  async function complete(orderUuid: string): Promise<void> {
    expect(
      await cli(['marketplace', 'order', 'approve-by-provider', orderUuid, '--format', 'json'], provider()),
    ).toMatchObject({ code: 0 });
    const done = await cli(
      ['marketplace', 'order', 'set-state-done', orderUuid, '--format', 'json'],
      provider(),
    );
    expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
  }

  /** The newest pending-provider order of the project, once the CLI has placed it. */
  async function pendingOrder(): Promise<Order> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const orders = await api.ok<Order[]>(
        'provider',
        'GET',
        `/api/marketplace-orders/?project_uuid=${project}&state=pending-provider`,
      );
      if (orders.length > 0) return orders[0];
      if (Date.now() > deadline) throw new Error('no pending order');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const json = (result: CliResult): Json => {
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
    return JSON.parse(result.stdout) as Json;
  };

  beforeAll(async () => {
    system = await ApiSystem.start('cli');
    api = new ApiSession(system.base, system.db.url);
    api.tokens.staff = system.staffToken;
    await api.user('provider', 'staff');
    await api.user('owner', 'staff');
    providerOrg = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Provider' })).uuid as string;
    const orgA = (await api.ok('staff', 'POST', '/api/customers/', { name: 'Org A' })).uuid as string;
    for (const [org, user] of [
      [providerOrg, 'provider'],
      [orgA, 'owner'],
    ])
      await api.ok('staff', 'POST', `/api/customers/${org}/add_user/`, {
        user: api.users[user],
        role: 'CUSTOMER.OWNER',
      });
    project = (await api.ok('owner', 'POST', '/api/projects/', { name: 'A1', customer: orgA }))
      .uuid as string;
    const created = await api.ok('provider', 'POST', '/api/marketplace-provider-offerings/', {
      name: 'Consulting',
      type: 'Marketplace.Basic',
      customer: providerOrg,
    });
    await api.ok(
      'provider',
      'POST',
      `/api/marketplace-provider-offerings/${created.uuid as string}/activate/`,
    );
    offering = await api.ok('owner', 'GET', `/api/marketplace-public-offerings/${created.uuid as string}/`);
    // The owner's ambient project, set once: every order body below leaves `project` out.
    expect(await cli(['config', 'set', 'project', project])).toMatchObject({ code: 0 });
  });

  afterAll(() => system?.stop());

  it('prints its help with the exit codes, runs as `npx waldur-cli`, and refuses bad input before sending anything', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    expect(help.stdout).toMatch(/5 +the order ended erred, rejected or canceled/);
    expect((await runCli(['--version'], {}, { command: ['npx', 'waldur-cli'] })).stdout.trim()).toBe('0.1.0');
    // Its start-up time is a figure of `npm run bench -- cli-wait` (help_cold_start), not a timed test.
    // Read by a pager or `head` that stops early: a quiet success, not a stack trace.
    const headed = await runCli(
      [],
      {},
      { command: ['bash', '-o', 'pipefail', '-c', `'${process.execPath}' '${CLI_BIN}' --help | head -1`] },
    );
    expect(headed).toMatchObject({ code: 0, stdout: 'Usage: waldur-cli [options] [command]\n', stderr: '' });

    const before = await orderCount();
    const malformed = await cli([
      'marketplace',
      'resource',
      'provision',
      '--request',
      '{"offering": ',
      '--format',
      'json',
    ]);
    expect(malformed.code).toBe(2);
    const malformedError = JSON.parse(malformed.stderr) as Json;
    expect(Object.keys(malformedError)).toEqual(['error']);
    expect(malformedError.error).toMatch(/^--request: not valid JSON/);
    expect((await cli(['marketplace', 'order', 'wait', 'x', '--jmespath', 'state=='])).code).toBe(2);
    expect((await cli(['marketplace', 'offering', 'list', '--filter', 'customer_uuid=nope'])).code).toBe(2);
    expect((await cli(['marketplace', 'offering', 'list', '--bogus'])).code).toBe(2);
    expect(await orderCount()).toBe(before);
    const refused = await cli(['marketplace', 'order', 'list', '--format', 'json'], {
      ...owner(),
      WALDUR_TOKEN: 'not-a-token',
    });
    expect(refused.code).toBe(3);
    const refusal = JSON.parse(refused.stderr) as Json;
    expect(refusal.error).toMatch(/^401: /);
    expect(refusal.details).toHaveProperty('detail');
  });

  it('logs in with a username and password and keeps the token in the profile', async () => {
    await api.ok('staff', 'POST', `/api/users/${api.users.owner}/change_password/`, {
      new_password: 'cli-Passw0rd-long',
    });
    // Staff setting a password signs the user out everywhere: the suite's own token of the owner too.
    api.tokens.owner = await system.createToken(api.users.owner);
    const file = join(dir, 'login.yaml');
    const env = { WALDUR_API_URL: system.base, WALDUR_CLI_CONFIG: file };
    const login = await runCli(
      ['login', '--username', 'owner', '--password-stdin', '--format', 'json'],
      env,
      { stdin: 'cli-Passw0rd-long\n' },
    );
    expect(json(login)).toMatchObject({ profile: 'default', logged_in: true });
    expect(readFileSync(file, 'utf8')).toMatch(/token: \S+/);
    const me = await runCli(['config', 'show', '--format', 'json'], env);
    expect(json(me)).toMatchObject({ api_url: system.base, token: '(set)' });
    expect(await runCli(['marketplace', 'order', 'list', '--format', 'json'], env)).toMatchObject({
      code: 0,
    });
  });

  it('finds the offering as the seed does: list with a filter and a JMESPath projection', async () => {
    const list = await cli([
      'marketplace',
      'offering',
      'list',
      '--filter',
      'type=Marketplace.Basic',
      '--format',
      'json',
      '--jmespath',
      '[].{name: name, uuid: uuid, url: url}',
    ]);
    expect(json(list)).toContainEqual({ name: 'Consulting', uuid: offering.uuid, url: offering.url });
    const plans = await cli([
      'marketplace',
      'plan',
      'list',
      '--filter',
      `offering_uuid=${offering.uuid}`,
      '--format',
      'json',
      '--jmespath',
      '[].url',
    ]);
    expect(json(plans)).toEqual([offering.plans[0].url]);
  });

  it('lets a provider create and publish an offering from the command line', async () => {
    const created = await cli(
      [
        'marketplace',
        'provider-offering',
        'create',
        '--format',
        'json',
        '--request',
        JSON.stringify({ name: 'Workshops', type: 'Marketplace.Basic', customer: providerOrg }),
      ],
      provider(),
    );
    const draft = json(created);
    expect(draft).toMatchObject({ name: 'Workshops', state: 'Draft' });
    const activated = await cli(
      ['marketplace', 'provider-offering', 'activate', draft.uuid as string, '--format', 'json'],
      provider(),
    );
    expect(json(activated)).toMatchObject({ uuid: draft.uuid, state: 'Active' });
    const listed = await cli([
      'marketplace',
      'offering',
      'list',
      '--filter',
      'name=Workshops',
      '--format',
      'json',
      '--jmespath',
      '[].uuid',
    ]);
    expect(json(listed)).toEqual([draft.uuid]);
  });

  it('fills the ambient project set once, and --dry-run prints the order the server would create without creating it', async () => {
    expect(readFileSync(config, 'utf8')).toContain(`project: ${project}`);
    const before = await orderCount();
    const dry = await cli([
      'marketplace',
      'resource',
      'provision',
      '--request',
      JSON.stringify({ ...orderBody('dry'), description: null }),
      '--dry-run',
      '--format',
      'json',
    ]);
    expect(json(dry)).toMatchObject({
      type: 'Create',
      project_uuid: project,
      project: `${system.base}/api/projects/${project}/`,
      offering_uuid: offering.uuid,
      attributes: { name: 'dry' },
    });
    expect(await orderCount()).toBe(before);
  });

  it('provisions with --no-wait, and `marketplace order wait` in another process returns when the order is done', async () => {
    const order = await provisionWithoutWaiting('later');
    const wait = startCli(
      ['marketplace', 'order', 'wait', order, '--jmespath', "state=='done'", '--format', 'json', '--debug'],
      owner(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await complete(order);
    const result = await wait.done;
    expect(json(result)).toMatchObject({ uuid: order, state: 'done' });
    // One GET at the start, then the event stream: no request loop while it is up.
    const requests = result.stderr.split('\n').filter((line) => line.startsWith('debug: GET'));
    expect(requests).toEqual([
      expect.stringMatching(/\/api\/events\?order_uuid=.* event stream$/),
      expect.stringContaining(`/api/marketplace-orders/${order}/ → 200`),
    ]);
    expect(result.stderr).not.toContain('polling');
  });

  it('resumes its event stream with Last-Event-ID across a gateway restart, without polling', async () => {
    const order = await provisionWithoutWaiting('restart');
    const wait = startCli(
      [
        'marketplace',
        'order',
        'wait',
        order,
        '--jmespath',
        "state=='done'",
        '--format',
        'json',
        '--debug',
        '--max-retries',
        '8',
      ],
      owner(),
    );
    while (!wait.output().stderr.includes(`/api/marketplace-orders/${order}/ → 200`))
      await new Promise((r) => setTimeout(r, 20));
    // An event it sees (its id is where it resumes), then the gateway goes away and the order is done meanwhile.
    await api.ok('provider', 'POST', `/api/marketplace-orders/${order}/approve_by_provider/`);
    while (!/debug: received OrderStateChanged event \d+/.test(wait.output().stderr))
      await new Promise((r) => setTimeout(r, 20));
    await system.restartGateway();
    await api.ok('provider', 'POST', `/api/marketplace-orders/${order}/set_state_done/`);
    const result = await wait.done;
    expect(json(result)).toMatchObject({ uuid: order, state: 'done' });
    expect(result.stderr).toMatch(/resuming after event \d+/);
    expect(result.stderr).toMatch(/→ 200 event stream \(resuming after \d+\)/);
    expect(result.stderr).not.toContain('falling back to polling');
  });

  let resourceUuid = '';

  it('provisions from a YAML file, waits for the provider, and prints the resource with uuid and resource_uuid', async () => {
    const file = join(dir, 'order.yaml');
    writeFileSync(
      file,
      `offering: ${offering.url}\nplan: ${offering.plans[0].url}\nattributes:\n  name: from-yaml\n  description: null\nlimits:\n  days: 3\n`,
    );
    const provision = startCli(
      ['marketplace', 'resource', 'provision', '--request-file', file, '--format', 'json'],
      owner(),
    );
    const order = await pendingOrder();
    await complete(order.uuid);
    const resource = json(await provision.done);
    expect(resource).toMatchObject({
      name: 'from-yaml',
      state: 'OK',
      project_uuid: project,
      limits: { days: 3 },
    });
    expect(resource).toHaveProperty('resource_uuid');
    resourceUuid = resource.uuid as string;
    const listed = await cli([
      'marketplace',
      'resource',
      'list',
      '--filter',
      `offering_uuid=${offering.uuid}`,
      '--format',
      'json',
      '--jmespath',
      '[].uuid',
    ]);
    expect(json(listed)).toContain(resourceUuid);
  });

  it("fails with the order's state and message when the provider rejects it (exit 5)", async () => {
    const provision = startCli(
      ['marketplace', 'resource', 'provision', '--request', JSON.stringify(orderBody('unwanted'))],
      owner(),
    );
    const order = await pendingOrder();
    expect((await cli(['marketplace', 'order', 'reject-by-provider', order.uuid], provider())).code).toBe(0);
    const result = await provision.done;
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`marketplace order ${order.uuid} rejected`);
    expect(result.stdout).toBe('');
    // Waiting on it now stops at once: a rejected order never moves again.
    const late = await cli(['marketplace', 'order', 'wait', order.uuid, '--jmespath', "state=='done'"]);
    expect(late.code).toBe(5);
    expect(late.stderr).toContain(`order ${order.uuid} is rejected -- state=='done' can no longer hold`);
  });

  it('gives up at --timeout with exit 6, says the order may still complete, and cancels nothing', async () => {
    const result = await cli([
      'marketplace',
      'resource',
      'provision',
      '--request',
      JSON.stringify(orderBody('slow')),
      '--timeout',
      '1',
    ]);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(
      /timed out after 1s .*\(last state: pending-provider\) -- it may still complete/,
    );
    const order = await pendingOrder();
    expect(order.state).toBe('pending-provider');
    await complete(order.uuid);
  });

  it('terminates with --no-wait, and `marketplace resource wait` returns once it is Terminated', async () => {
    const terminated = await cli([
      'marketplace',
      'resource',
      'terminate',
      resourceUuid,
      '--no-wait',
      '--format',
      'json',
    ]);
    const order = json(terminated) as Order;
    expect(order).toMatchObject({ type: 'Terminate', state: 'pending-provider' });
    const wait = startCli(
      [
        'marketplace',
        'resource',
        'wait',
        resourceUuid,
        '--jmespath',
        "state=='Terminated'",
        '--format',
        'json',
      ],
      owner(),
    );
    await complete(order.uuid);
    expect(json(await wait.done)).toMatchObject({ uuid: resourceUuid, state: 'Terminated' });
  });

  it('shows a one-line live progress on a terminal, and only the result when piped', async () => {
    const order = await provisionWithoutWaiting('watched');
    const command = [
      process.execPath,
      CLI_BIN,
      'marketplace',
      'order',
      'wait',
      order,
      '--jmespath',
      "state=='done'",
      '--timeout',
      '2',
    ]
      .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
      .join(' ');
    // `script` gives the CLI a pseudo-terminal, as a person at a terminal has (with a width, as a
    // terminal window reports: a bare pty reports none, and nothing is drawn then).
    const terminal = await runCli([], owner(), {
      command: ['script', '-q', '-e', '-c', `stty cols 120 rows 40; ${command}`, '/dev/null'],
    });
    expect(terminal.code).toBe(6);
    expect(terminal.stdout).toContain(`order ${order}: pending-provider (`);
    const piped = await cli([
      'marketplace',
      'order',
      'wait',
      order,
      '--jmespath',
      "state=='done'",
      '--timeout',
      '2',
    ]);
    expect(piped.code).toBe(6);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).not.toContain('pending-provider (');
    await cli(['marketplace', 'order', 'cancel', order]);
  });

  /** A provider's OpenStack offering, created and published through the CLI; its public view. */
  async function openstackOffering(type: string, name: string): Promise<typeof offering> {
    const created = await cli(
      [
        'marketplace',
        'provider-offering',
        'create',
        '--format',
        'json',
        '--request',
        JSON.stringify({ name, type, customer: providerOrg }),
      ],
      provider(),
    );
    const uuid = json(created).uuid as string;
    expect(
      json(await cli(['marketplace', 'provider-offering', 'activate', uuid, '--format', 'json'], provider())),
    ).toMatchObject({ state: 'Active', type });
    return api.ok<typeof offering>('owner', 'GET', `/api/marketplace-public-offerings/${uuid}/`);
  }

  it("runs the seed's OpenStack flow: typed skeletons, tenant and instance provisioned, waited on and terminated, the provider completing by hand", async () => {
    const tenants = await openstackOffering('OpenStack.Tenant', 'VPC');
    const instances = await openstackOffering('OpenStack.Instance', 'VM in VPC');
    const found = await cli([
      'marketplace',
      'offering',
      'list',
      '--filter',
      'type=OpenStack.Tenant',
      '--format',
      'json',
      '--jmespath',
      '[].{name: name, uuid: uuid, url: url}',
    ]);
    expect(json(found)).toEqual([{ name: 'VPC', uuid: tenants.uuid, url: tenants.url }]);

    // The seed's tenant order, project left out (the ambient one), in vpc.yaml.
    const vpc = join(dir, 'vpc.yaml');
    writeFileSync(
      vpc,
      JSON.stringify({
        offering: tenants.url,
        plan: tenants.plans[0].url,
        attributes: { name: 'my-vpc', skip_connection_extnet: true, skip_creation_of_default_router: true },
        limits: { cores: 4, ram: 4096, storage: 51200 },
        accepting_terms_of_service: true,
      }),
    );
    const before = await orderCount();
    const provisioning = startCli(
      ['openstack', 'tenant', 'provision', '--request-file', vpc, '--format', 'json'],
      owner(),
    );
    const tenantOrder = await pendingOrder();
    expect(tenantOrder).toMatchObject({ offering_type: 'OpenStack.Tenant', attributes: { name: 'my-vpc' } });
    await complete(tenantOrder.uuid);
    const tenant = json(await provisioning.done);
    expect(tenant).toMatchObject({
      name: 'my-vpc',
      state: 'OK',
      offering_type: 'OpenStack.Tenant',
      limits: { cores: 4, ram: 4096, storage: 51200 },
    });
    // Both fields of the seed; resource_uuid stays null: no OpenStack backend made a tenant here.
    expect(tenant).toHaveProperty('resource_uuid');
    expect(tenant.uuid).toEqual(expect.any(String));
    expect(await orderCount()).toBe(before + 1);

    // ORDER=$(waldur-cli openstack tenant provision --request-file vpc.yaml --no-wait --format json --jmespath 'uuid')
    const placed = await cli([
      'openstack',
      'tenant',
      'provision',
      '--request-file',
      vpc,
      '--no-wait',
      '--format',
      'json',
      '--jmespath',
      'uuid',
    ]);
    expect(placed.code).toBe(0);
    const order = placed.stdout.trim();
    expect(order).toMatch(/^[0-9a-f-]{36}$/);
    const waitForOrder = startCli(
      ['marketplace', 'order', 'wait', order, '--jmespath', "state=='done'", '--format', 'json'],
      owner(),
    );
    await complete(order);
    expect(json(await waitForOrder.done)).toMatchObject({ uuid: order, state: 'done' });

    // waldur-cli openstack instance provision --generate-skeleton yaml > vm.yaml, filled in.
    const skeleton = await cli(['openstack', 'instance', 'provision', '--generate-skeleton', 'yaml']);
    expect(skeleton.code).toBe(0);
    for (const field of ['flavor', 'image', 'system_volume_size', 'ssh_public_key', 'availability_zone'])
      expect(skeleton.stdout).toContain(`  ${field}: null`);
    expect(skeleton.stdout).toContain('accepting_terms_of_service: true');
    const vm = join(dir, 'vm.yaml');
    writeFileSync(
      vm,
      skeleton.stdout
        .replace('offering: null', `offering: ${instances.url}`)
        .replace('plan: null', `plan: ${instances.plans[0].url}`)
        .replace('  name: null', '  name: my-instance')
        .replace('flavor: null', 'flavor: m1.small')
        .replace('system_volume_size: null', 'system_volume_size: 20480')
        .replace('subnet: null', 'subnet: https://waldur.example.com/api/openstack-subnets/s-1/'),
    );
    const instanceProvision = startCli(
      ['openstack', 'instance', 'provision', '--request-file', vm, '--format', 'json'],
      owner(),
    );
    const instanceOrder = await pendingOrder();
    // Only what was filled in went: no nulls, no empty port fields, no floating IPs.
    expect(instanceOrder.attributes).toEqual({
      name: 'my-instance',
      flavor: 'm1.small',
      system_volume_size: 20480,
      ports: [{ subnet: 'https://waldur.example.com/api/openstack-subnets/s-1/' }],
    });
    await complete(instanceOrder.uuid);
    const instance = json(await instanceProvision.done);
    expect(instance).toMatchObject({ name: 'my-instance', state: 'OK', offering_type: 'OpenStack.Instance' });
    const instanceUuid = instance.uuid as string;

    const listed = await cli(['openstack', 'instance', 'list', '--format', 'json', '--jmespath', '[].uuid']);
    expect(json(listed)).toEqual([instanceUuid]);
    const tenantNames = await cli([
      'openstack',
      'tenant',
      'list',
      '--format',
      'json',
      '--jmespath',
      '[].name',
    ]);
    expect(json(tenantNames)).toEqual(['my-vpc', 'my-vpc']);
    expect(
      json(
        await cli([
          'openstack',
          'instance',
          'wait',
          instanceUuid,
          '--jmespath',
          "state=='OK'",
          '--format',
          'json',
        ]),
      ),
    ).toMatchObject({ uuid: instanceUuid, state: 'OK' });

    // waldur-cli openstack instance terminate <marketplace_resource_uuid>, with the seed's options.
    const terminating = startCli(
      [
        'openstack',
        'instance',
        'terminate',
        instanceUuid,
        '--request',
        '{"delete_volumes": true, "release_floating_ips": true}',
        '--format',
        'json',
      ],
      owner(),
    );
    const terminateOrder = await pendingOrder();
    expect(terminateOrder).toMatchObject({
      type: 'Terminate',
      attributes: { delete_volumes: true, release_floating_ips: true },
    });
    await complete(terminateOrder.uuid);
    expect(json(await terminating.done)).toMatchObject({ uuid: instanceUuid, state: 'Terminated' });
    const gone = await cli(['openstack', 'instance', 'wait', instanceUuid, '--jmespath', "state=='OK'"]);
    expect(gone.code).toBe(5);
    expect(gone.stderr).toContain(`instance ${instanceUuid} is Terminated`);
  });

  /**
   * The seed's command lines exactly as provisioning-cli.txt writes them (line continuations, quotes,
   * redirections and `$(...)` included), run by bash in a directory with `waldur-cli` on PATH; only
   * the `<uuid>` placeholders and example URLs are replaced by this system's.
   */
  function seedShell(script: string): ReturnType<typeof startCli> {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'waldur-cli'), `#!/bin/sh\nexec '${process.execPath}' '${CLI_BIN}' "$@"\n`);
    chmodSync(join(bin, 'waldur-cli'), 0o755);
    return startCli(
      [],
      { ...owner(), PATH: `${bin}:${process.env.PATH ?? ''}` },
      {
        command: ['bash', '-e', '-c', script],
        cwd: dir,
      },
    );
  }

  /** A seed line that places an order: the provider completes it by hand; its printed JSON. */
  async function seedOrder(script: string): Promise<{ order: Order; printed: Json; afterDoneMs: number }> {
    const running = seedShell(script);
    const order = await pendingOrder();
    await complete(order.uuid);
    const doneAt = Date.now();
    const printed = json(await running.done);
    return { order, printed, afterDoneMs: Date.now() - doneAt };
  }

  it('runs every command line of provisioning-cli.txt verbatim in a shell, the provider completing the orders', async () => {
    const tenants = await openstackOffering('OpenStack.Tenant', 'Seed VPC');
    const instances = await openstackOffering('OpenStack.Instance', 'Seed VM');

    // 1. Find an offering.
    const found =
      await seedShell(`waldur-cli marketplace offering list --filter type=OpenStack.Tenant --format json \\
  --jmespath '[].{name: name, uuid: uuid, url: url}'`).done;
    expect(json(found)).toContainEqual({ name: 'Seed VPC', uuid: tenants.uuid, url: tenants.url });

    // 2. Build the order: the instance skeleton, then filled in as a user would; the seed's tenant order
    // as YAML, project left out (the ambient one fills it).
    const skeleton = await seedShell(
      'waldur-cli openstack instance provision --generate-skeleton yaml > vm.yaml',
    ).done;
    expect({ code: skeleton.code, stdout: skeleton.stdout }).toEqual({ code: 0, stdout: '' });
    const vmYaml = readFileSync(join(dir, 'vm.yaml'), 'utf8');
    for (const field of ['offering', 'plan', 'flavor', 'image', 'ports'])
      expect(vmYaml).toMatch(new RegExp(`^ *${field}:`, 'm'));
    expect(vmYaml).toContain('accepting_terms_of_service: true');
    writeFileSync(
      join(dir, 'vm.yaml'),
      vmYaml
        .replace('offering: null', `offering: ${instances.url}`)
        .replace('plan: null', `plan: ${instances.plans[0].url}`)
        .replace('  name: null', '  name: seed-instance')
        .replace('flavor: null', 'flavor: m1.small'),
    );
    writeFileSync(
      join(dir, 'vpc.yaml'),
      [
        `offering: ${tenants.url}`,
        `plan: ${tenants.plans[0].url}`,
        'attributes:',
        '  name: my-vpc',
        '  skip_connection_extnet: true',
        '  skip_creation_of_default_router: true',
        'limits: {cores: 4, ram: 4096, storage: 51200}',
        'accepting_terms_of_service: true',
        '',
      ].join('\n'),
    );

    // 3. Provision: waits for the order and prints the resource with uuid and resource_uuid.
    for (const line of [
      'waldur-cli openstack tenant provision --request-file vpc.yaml',
      'waldur-cli openstack tenant provision --request-file vpc.yaml --timeout 300',
      'waldur-cli openstack tenant provision --request-file vpc.yaml --interval 10',
    ]) {
      const { order, printed, afterDoneMs } = await seedOrder(line);
      expect(order).toMatchObject({
        offering_type: 'OpenStack.Tenant',
        project_uuid: project,
        attributes: { name: 'my-vpc', skip_connection_extnet: true, skip_creation_of_default_router: true },
        limits: { cores: 4, ram: 4096, storage: 51200 },
      });
      expect(printed).toMatchObject({ uuid: order.marketplace_resource_uuid, name: 'my-vpc', state: 'OK' });
      expect(printed).toHaveProperty('resource_uuid');
      // Even at --interval 10 the result comes with the event, not at the next poll.
      expect(afterDoneMs).toBeLessThan(8_000);
    }

    // --no-wait prints the order at once; `openstack instance wait` follows it from another process.
    const instanceResource = async (): Promise<string> => {
      const placed = await seedShell(
        'waldur-cli openstack instance provision --request-file vm.yaml --no-wait',
      ).done;
      const order = json(placed) as Order;
      expect(order).toMatchObject({
        type: 'Create',
        state: 'pending-provider',
        offering_type: 'OpenStack.Instance',
      });
      expect(order.attributes).toEqual({ name: 'seed-instance', flavor: 'm1.small' });
      const uuid = order.marketplace_resource_uuid as string;
      const waiting = seedShell(`waldur-cli openstack instance wait ${uuid} --jmespath "state=='OK'"`);
      await complete(order.uuid);
      expect(json(await waiting.done)).toMatchObject({ uuid, state: 'OK' });
      // A presence check on the order's resource_uuid: null counts as not met. Completed by hand, no
      // OpenStack backend ever names the instance, so the done order can no longer meet it (the
      // vCenter VM of the vmware tests below does).
      const withResource = await seedShell(
        `waldur-cli marketplace order wait ${order.uuid} --jmespath "resource_uuid"`,
      ).done;
      expect(withResource).toMatchObject({ code: 5, stdout: '' });
      expect(withResource.stderr).toContain(
        `order ${order.uuid} is done -- resource_uuid can no longer hold`,
      );
      return uuid;
    };
    const first = await instanceResource();
    const second = await instanceResource();

    // Terminating, plain and with the termination options.
    const plain = await seedOrder(`waldur-cli openstack instance terminate ${first}`);
    expect(plain.order).toMatchObject({ type: 'Terminate', marketplace_resource_uuid: first });
    expect(plain.printed).toMatchObject({ uuid: first, state: 'Terminated' });
    const withOptions = await seedOrder(`waldur-cli openstack instance terminate ${second} \\
  --request '{"delete_volumes": true, "release_floating_ips": true}'`);
    expect(withOptions.order).toMatchObject({
      type: 'Terminate',
      attributes: { delete_volumes: true, release_floating_ips: true },
    });
    expect(withOptions.printed).toMatchObject({ uuid: second, state: 'Terminated' });

    // Fire-and-forget, then wait on the order from the same script.
    const later =
      await seedOrder(`ORDER=$(waldur-cli openstack tenant provision --request-file vpc.yaml --no-wait \\
  --format json --jmespath 'uuid')
# ... do other things ...
waldur-cli marketplace order wait "$ORDER" --jmespath "state=='done'" --format json`);
    expect(later.printed).toMatchObject({ uuid: later.order.uuid, state: 'done' });

    // Provisioning other offerings: a type this system has none of lists none; the free-form order
    // goes to the hand-processed offering, with its project explicit.
    const slurm = await seedShell('waldur-cli marketplace offering list --filter type=Marketplace.Slurm')
      .done;
    expect(json(slurm)).toEqual([]);
    const generic = await seedOrder(
      `waldur-cli marketplace resource provision --request '{
  "offering": "https://waldur.example.com/api/marketplace-public-offerings/<uuid>/",
  "project":  "https://waldur.example.com/api/projects/<uuid>/",
  "plan":     "https://waldur.example.com/api/marketplace-public-offerings/<uuid>/plans/<uuid>/",
  "attributes": {"name": "my-allocation"},
  "limits":     {"cpu": 100, "ram": 200, "gpu": 4}
}'`
        .replace(
          'https://waldur.example.com/api/marketplace-public-offerings/<uuid>/plans/<uuid>/',
          offering.plans[0].url,
        )
        .replace('https://waldur.example.com/api/marketplace-public-offerings/<uuid>/', offering.url)
        .replace(
          'https://waldur.example.com/api/projects/<uuid>/',
          `${system.base}/api/projects/${project}/`,
        ),
    );
    expect(generic.printed).toMatchObject({
      name: 'my-allocation',
      state: 'OK',
      offering_uuid: offering.uuid,
      limits: { cpu: 100, ram: 200, gpu: 4 },
    });
    const allocation = generic.printed.uuid as string;
    const resources = await seedShell(
      `waldur-cli marketplace resource list --filter offering_uuid=${offering.uuid}`,
    ).done;
    expect((json(resources) as unknown as Json[]).map((r) => r.uuid)).toContain(allocation);
    const terminated = await seedOrder(`waldur-cli marketplace resource terminate ${allocation}`);
    expect(terminated.printed).toMatchObject({ uuid: allocation, state: 'Terminated' });
  });

  it('completes commands in bash from its generated script', async () => {
    const script = (await cli(['completion', 'bash'])).stdout;
    writeFileSync(join(dir, 'completion.bash'), script);
    const complete = (words: string[]) =>
      runCli(
        [],
        {},
        {
          command: [
            'bash',
            '-c',
            `source ${join(dir, 'completion.bash')}; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _waldur_cli; echo "\${COMPREPLY[@]}"`,
          ],
        },
      );
    expect((await complete(['waldur-cli', 'marketplace', 'or'])).stdout.trim()).toBe('order');
    expect(
      (await complete(['waldur-cli', '--format', 'json', 'marketplace', 'order', 'approve-by-'])).stdout
        .trim()
        .split(' ')
        .sort(),
    ).toEqual(['approve-by-consumer', 'approve-by-provider']);
    expect((await cli(['completion', 'zsh'])).stdout).toContain('bashcompinit');
  });

  it('completes commands in an interactive zsh at a terminal (tmux) from its generated script', async () => {
    const home = join(dir, 'zsh');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'completion.zsh'), (await cli(['completion', 'zsh'])).stdout);
    writeFileSync(
      join(home, '.zshrc'),
      `autoload -U compinit && compinit -u\nsource ${join(home, 'completion.zsh')}\nPS1='> '\n`,
    );
    const socket = `waldur-cli-test-${process.pid}`;
    const tmux = (...args: string[]) =>
      runCli([], { TERM: 'xterm-256color' }, { command: ['tmux', '-L', socket, '-f', '/dev/null', ...args] });
    /** What the terminal shows once `expected` appears on it (or the deadline passes). */
    const screenWith = async (expected: RegExp): Promise<string> => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const screen = (await tmux('capture-pane', '-t', 'cli', '-p')).stdout;
        if (expected.test(screen) || Date.now() > deadline) return screen;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const started = await tmux(
      'new-session',
      '-d',
      '-s',
      'cli',
      '-x',
      '150',
      '-y',
      '30',
      `env ZDOTDIR=${home} zsh -i`,
    );
    expect(started).toMatchObject({ code: 0, stderr: '' });
    try {
      // The prompt (a pane's trailing blanks are not captured).
      expect(await screenWith(/^>/m)).toMatch(/^>/m);
      await tmux('send-keys', '-t', 'cli', 'waldur-cli marketplace or', 'Tab');
      expect(await screenWith(/marketplace order/)).toContain('> waldur-cli marketplace order');
      // Two candidates: the second Tab lists them under the line.
      await tmux('send-keys', '-t', 'cli', 'C-u', 'waldur-cli marketplace order approve-by-', 'Tab', 'Tab');
      expect(await screenWith(/approve-by-provider/)).toMatch(/approve-by-consumer +approve-by-provider/);
    } finally {
      await tmux('kill-server');
    }
  });
});

/**
 * `vmware` commands on the whole system over vcsim: the inventory lists, the typed skeleton filled
 * in and provisioned, the VM's resource printed, then terminated.
 */
describe('waldur-cli vmware commands against vcsim', () => {
  let market: VsphereMarketplace;
  const dir = mkdtempSync(join(tmpdir(), 'waldur-cli-vm-'));
  const as = (who: string) => ({
    WALDUR_API_URL: market.api.base,
    WALDUR_TOKEN: market.api.tokens[who],
    WALDUR_CLI_CONFIG: join(dir, `${who}.yaml`),
    WALDUR_PROJECT: market.project.uuid,
  });

  beforeAll(async () => {
    market = await VsphereMarketplace.start('cli-vm');
  });
  afterAll(() => market?.stop());

  /** `vmware vm provision --generate-skeleton yaml`, filled in as a user would, written to vm.yaml. */
  async function writeFilledSkeleton(): Promise<CliResult> {
    const offering = market.offering.uuid;
    const skeleton = await runCli(['vmware', 'vm', 'provision', '--generate-skeleton', 'yaml'], as('member'));
    const filled = skeleton.stdout
      .replace('offering: null', `offering: ${market.api.base}/api/marketplace-public-offerings/${offering}/`)
      .replace('plan: null', `plan: ${(market.offering.plans[0] as Json).url as string}`)
      .replace('  name: null', '  name: cli-vm-1')
      .replace('template: null', `template: ${market.templates[0].uuid}`)
      .replace('cpu: null', 'cpu: 1')
      .replace('ram: null', 'ram: 1024');
    writeFileSync(join(dir, 'vm.yaml'), filled);
    return skeleton;
  }

  it('lists the inventory and fills the typed skeleton of a VMware order', async () => {
    const offering = market.offering.uuid;
    const templates = await runCli(
      [
        'vmware',
        'template',
        'list',
        '--filter',
        `offering_uuid=${offering}`,
        '--format',
        'json',
        '--jmespath',
        '[].name',
      ],
      as('member'),
    );
    expect(JSON.parse(templates.stdout)).toEqual(market.templates.map((t) => t.name));

    const skeleton = await writeFilledSkeleton();
    expect(skeleton.code).toBe(0);
    for (const field of [
      'template',
      'cores_per_socket',
      'cluster',
      'datastore',
      'folder',
      'cpu',
      'ram',
      'disk',
    ])
      expect(skeleton.stdout).toContain(`${field}: null`);
    expect(skeleton.stdout).toContain('accepting_terms_of_service: true');
  });

  it('provisions a VM in vcsim from the filled skeleton and prints its resource', async () => {
    const offering = market.offering.uuid;
    await writeFilledSkeleton();

    const provision = startCli(
      ['vmware', 'vm', 'provision', '--request-file', join(dir, 'vm.yaml'), '--format', 'json'],
      as('member'),
    );
    // The provider side (staff here) approves when the order waits for it.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const pending = await market.api.ok<Order[]>(
        'staff',
        'GET',
        `/api/marketplace-orders/?offering_uuid=${offering}&state=pending-provider`,
      );
      if (pending.length > 0) {
        expect(
          (await runCli(['marketplace', 'order', 'approve-by-provider', pending[0].uuid], as('staff'))).code,
        ).toBe(0);
        break;
      }
      const executing = await market.api.ok<Order[]>(
        'staff',
        'GET',
        `/api/marketplace-orders/?offering_uuid=${offering}`,
      );
      if (executing.some((order) => order.state !== 'pending-consumer')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const result = await provision.done;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const vm = JSON.parse(result.stdout) as Json;
    provisioned = { resource: vm.uuid as string, instance: vm.resource_uuid as string };
    expect(vm).toMatchObject({ name: 'cli-vm-1', state: 'OK', offering_type: 'VMware.VirtualMachine' });
    expect(vm.resource_uuid).toEqual(expect.any(String));
    expect(vm.backend_id).toMatch(/^vm-/);
    // The VM in vcsim: the one the adapter marked with the order, as the skeleton asked for it.
    const [order] = await market.api.ok<Order[]>(
      'staff',
      'GET',
      `/api/marketplace-orders/?resource_uuid=${vm.uuid as string}`,
    );
    // The seed's presence check on the order: vCenter's VM named, it holds at once.
    const named = await runCli(
      ['marketplace', 'order', 'wait', order.uuid, '--jmespath', 'resource_uuid'],
      as('member'),
    );
    expect({ code: named.code, stderr: named.stderr }).toEqual({ code: 0, stderr: '' });
    const namedOrder = JSON.parse(named.stdout) as Json;
    expect(namedOrder).toMatchObject({ uuid: order.uuid, state: 'done' });
    expect(namedOrder.resource_uuid).toEqual(expect.any(String));
    const inVcsim = await vmsOfOrder(market.library.connection, order.uuid);
    expect(inVcsim).toHaveLength(1);
    expect(inVcsim[0]).toMatchObject({
      name: 'cli-vm-1',
      instanceUuid: vm.resource_uuid,
      numCPU: 1,
      memoryMB: 1024,
    });

    // `vmware vm list` names VMs by vCenter's instance uuid: the resource's resource_uuid.
    const listed = await runCli(
      ['vmware', 'vm', 'list', '--format', 'json', '--jmespath', '[].uuid'],
      as('member'),
    );
    expect(JSON.parse(listed.stdout)).toEqual([vm.resource_uuid]);
  });

  let provisioned: { resource: string; instance: string } | undefined;

  it("lists the offering's clusters, networks, datastores and folders", async () => {
    for (const kind of ['cluster', 'network', 'datastore', 'folder']) {
      const listed = await runCli(
        ['vmware', kind, 'list', '--format', 'json', '--jmespath', '[].uuid'],
        as('staff'),
      );
      expect({ kind, code: listed.code, stderr: listed.stderr }).toEqual({ kind, code: 0, stderr: '' });
      const known = (await market.inventory(`vmware-${kind}s`)).map((item) => item.uuid);
      expect(known.length).toBeGreaterThan(0);
      expect((JSON.parse(listed.stdout) as string[]).sort()).toEqual(known.sort());
    }
  });

  it('terminates the provisioned VM through its order once it is off, and vCenter no longer has it', async () => {
    const { resource, instance } = provisioned!;
    // vCenter deletes only a powered-off VM: the API refuses the terminate (409, exit 3) and says why.
    const refused = await runCli(['vmware', 'vm', 'terminate', resource], as('member'));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('must be POWERED_OFF to be deleted');
    const stopped = await runCli(
      ['vmware', 'vm', 'stop', instance, '--wait', '--format', 'json'],
      as('member'),
    );
    expect({ code: stopped.code, stderr: stopped.stderr }).toEqual({ code: 0, stderr: '' });
    const [created] = await market.api.ok<Order[]>(
      'staff',
      'GET',
      `/api/marketplace-orders/?resource_uuid=${resource}`,
    );
    const terminate = startCli(['vmware', 'vm', 'terminate', resource, '--format', 'json'], as('member'));
    // A Terminate order that waits for the provider is approved by staff, as the provision above.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const orders = await market.api.ok<Order[]>(
        'staff',
        'GET',
        `/api/marketplace-orders/?resource_uuid=${resource}&type=Terminate`,
      );
      const pending = orders.find((order) => order.state === 'pending-provider');
      if (pending) {
        expect(
          (await runCli(['marketplace', 'order', 'approve-by-provider', pending.uuid], as('staff'))).code,
        ).toBe(0);
        break;
      }
      if (orders.some((order) => order.state !== 'pending-consumer')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const result = await terminate.done;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({ uuid: resource, state: 'Terminated' });
    expect(await vmsOfOrder(market.library.connection, created.uuid)).toEqual([]);
  });

  it('lets staff assign a folder to an organisation, list it and take it back; others are refused', async () => {
    const [folder] = await market.inventory('vmware-folders');
    const customer = market.customer.uuid;
    const add = [
      'vmware',
      'assignment',
      'add',
      '--customer',
      customer,
      '--folder',
      folder.uuid,
      '--format',
      'json',
    ];
    const refused = await runCli(add, as('member'));
    expect(refused.code).toBe(3);
    const bad = await runCli(
      ['vmware', 'assignment', 'add', '--customer', customer, '--folder', 'f-1'],
      as('staff'),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--folder: Invalid hyperlink - Object does not exist.');

    const added = await runCli(add, as('staff'));
    expect({ code: added.code, stderr: added.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(added.stdout)).toMatchObject({
      kind: 'folders',
      customer_uuid: customer,
      object_uuid: folder.uuid,
    });
    const listed = await runCli(
      ['vmware', 'assignment', 'list', '--filter', `customer_uuid=${customer}`, '--format', 'json'],
      as('staff'),
    );
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ kind: 'folders', object_uuid: folder.uuid, object_name: folder.name }),
    ]);

    const removed = await runCli(
      ['vmware', 'assignment', 'remove', '--customer', customer, '--folder', folder.uuid],
      as('staff'),
    );
    expect(removed.code).toBe(0);
    const after = await runCli(
      [
        'vmware',
        'assignment',
        'list',
        '--kind',
        'folders',
        '--filter',
        `customer_uuid=${customer}`,
        '--format',
        'json',
      ],
      as('staff'),
    );
    expect(JSON.parse(after.stdout)).toEqual([]);
    const again = await runCli(
      ['vmware', 'assignment', 'remove', '--customer', customer, '--folder', folder.uuid],
      as('staff'),
    );
    expect(again.code).toBe(3);
  });
});
