import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { API_CLIENT_TYPES, apiClientTypes } from '../support/api-client-types';
import { eventually } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';
import * as flow from './generated-client/seed-flow';

jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');

/**
 * A client generated from our `/api/schema/` with a standard generator (openapi-typescript's types,
 * openapi-fetch's calls), as someone who knows Waldur would make one: it is the client of the
 * document the running gateway serves, it type-checks with the seed flow written against it
 * (generated-client/seed-flow.ts), and that flow runs on vcsim: offering list and get, a project,
 * a VM order with template, cluster and network to done, its resource and VM, stop, terminate.
 *
 * The generated file is committed (test/e2e/generated-client/api-schema.ts) rather than made in a
 * temp dir: the flow is then type-checked and linted by the repository's own `typecheck` like any
 * code, and a change of the API shows in review as a change of the generated client. The first test
 * keeps it honest: it regenerates from the live document and fails when the file is stale.
 */
describe('a client generated from our OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  let market: VsphereMarketplace;
  let client: flow.ApiClient;

  beforeAll(async () => {
    market = await VsphereMarketplace.start('genclient', { templates: ['Ubuntu-24.04'] });
    // Staff assign what the organisation may use, as an operator would (not the generated client's job).
    await market.vmPlacement();
    const [cluster] = await market.inventory('vmware-clusters');
    await market.assign('clusters', cluster.uuid);
    client = flow.apiClient(market.api.base, market.api.tokens.member);
  });

  afterAll(async () => {
    await market?.stop();
  });

  it('is the client of the document the gateway serves (regenerate: npm run -s generate:api-client)', async () => {
    const document = (await (await fetch(`${market.api.base}/api/schema/`)).json()) as object;
    const fresh = await apiClientTypes(document);
    const [now, kept] = [fresh.split('\n'), readFileSync(API_CLIENT_TYPES, 'utf8').split('\n')];
    const lines = [...Array(Math.max(now.length, kept.length)).keys()];
    // -1 when current; else the first line that differs, to see what changed.
    const line = lines.find((index) => now[index] !== kept[index]) ?? -1;
    expect({ line, fresh: now[line], kept: kept[line] }).toEqual({
      line: -1,
      fresh: undefined,
      kept: undefined,
    });
    // Its models carry Waldur's names.
    for (const name of [
      'OrderDetails',
      'Resource',
      'PublicOfferingDetails',
      'VmwareTemplate',
      'VmwareVirtualMachine',
    ])
      expect(fresh).toContain(`        ${name}: {`);
  });

  it('type-checks with tsc, the generated file and the flow using it on their own', async () => {
    // Asynchronously: a blocked event loop would leave the test's idle keep-alive sockets stale.
    const tsc = await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'node'),
      [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--ignoreConfig',
        '--noEmit',
        '--strict',
        '--exactOptionalPropertyTypes',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'ES2023',
        '--lib',
        'ES2023,DOM',
        '--types',
        'node',
        join(__dirname, 'generated-client', 'seed-flow.ts'),
        API_CLIENT_TYPES,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    ).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: `tsc failed: ${error.stdout ?? ''}`,
      stderr: error.stderr ?? '',
    }));
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
  });

  it('runs the seed flow: offering, project, a VM order to done, resource, VM, stop, terminate', async () => {
    const offerings = await flow.publicOfferings(client);
    const listed = offerings.find((offering) => offering.uuid === market.offering.uuid);
    expect(listed?.type).toBe('VMware.VirtualMachine');
    const offering = await flow.publicOffering(client, market.offering.uuid);
    const [plan] = offering.plans;
    expect(plan.url).toContain(`/api/marketplace-public-offerings/${offering.uuid}/plans/${plan.uuid}/`);

    // A project of the member's own organisation (the offering's customer is the provider).
    const project = await flow.createProject(
      client,
      `${market.api.base}/api/customers/${market.customer.uuid}/`,
      'Generated',
    );
    expect(project.customer_uuid).toBe(market.customer.uuid);

    const { templates, clusters, networks, folders } = await flow.placement(client, offering.uuid);
    const template = templates.find((t) => t.name === 'Ubuntu-24.04');
    const network = networks.find((n) => n.name === 'DC0_DVPG0');
    if (!template || !network || !clusters[0] || !folders[0])
      throw new Error(
        `nothing to place a VM with: ${JSON.stringify({ templates, networks, clusters, folders })}`,
      );
    const link = (collection: string, uuid: string) => `${market.api.base}/api/${collection}/${uuid}/`;

    const order = await flow.orderVm(
      client,
      {
        offering: offering.url,
        plan: plan.url,
        project: project.url,
        template: link('vmware-templates', template.uuid),
        cluster: link('vmware-clusters', clusters[0].uuid),
        network: link('vmware-networks', network.uuid),
        folder: link('vmware-folders', folders[0].uuid),
      },
      'generated-client-vm',
    );
    const done = await eventually(
      () => flow.getOrder(client, order.uuid),
      (o) => ['done', 'erred'].includes(o.state),
      180_000,
      'the VM order to end',
    );
    expect([done.state, done.error_message]).toEqual(['done', '']);

    const resource = await flow.resourceOfOrder(client, order.uuid);
    expect(resource.uuid).toBe(done.marketplace_resource_uuid);
    expect(resource.state).toBe('OK');
    expect(resource.resource_uuid).not.toBeNull();
    const vm = await flow.getVm(client, resource.resource_uuid as string);
    expect([vm.name, vm.runtime_state, vm.marketplace_resource_uuid]).toEqual([
      'generated-client-vm',
      'POWERED_ON',
      resource.uuid,
    ]);

    const stop = await flow.stopVm(client, vm.uuid);
    expect(stop.vm_uuid).toBe(vm.uuid);
    await eventually(
      () => flow.getVm(client, vm.uuid),
      (current) => current.runtime_state === 'POWERED_OFF',
      60_000,
      'the VM to power off',
    );

    const { order_uuid } = await flow.terminate(client, resource.uuid);
    const terminated = await eventually(
      () => flow.getOrder(client, order_uuid),
      (o) => ['done', 'erred'].includes(o.state),
      120_000,
      'the termination to end',
    );
    expect([terminated.type, terminated.state]).toEqual(['Terminate', 'done']);
    expect((await flow.getResource(client, resource.uuid)).state).toBe('Terminated');
  });
});
