import type { Json } from '../support/api-session';
import { successBody } from '../support/rest-client';
import { eventually, type Vm } from '../support/virtual-machines';
import { VsphereMarketplace } from '../support/vsphere-marketplace';

jest.setTimeout(240_000);

type Named = Json & { uuid: string; name: string };
type Order = Json & { uuid: string; state: string; marketplace_resource: string; error_message: string };
type Resource = Json & { uuid: string; state: string; scope: string | null; resource_uuid: string | null };

/** Keys whose string value is a hyperlink, besides `url` and `*_url`: Waldur's links between objects. */
const LINK_KEYS = new Set([
  'offering',
  'project',
  'customer',
  'plan',
  'scope',
  'resource',
  'marketplace_resource',
  'created_by',
  'template',
  'folder',
  'cluster',
  'datastore',
  'network',
  'vm',
  'disk',
  'port',
  'service_settings',
]);
/** vCenter's own address (an integration's), not one of ours. */
const NOT_OURS = new Set(['backend_url']);

/** Every URL-valued field of a JSON answer, with where it was found (`[0].plans[0].url`). */
function urlFields(value: unknown, path = ''): { path: string; url: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => urlFields(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Json).flatMap(([key, field]) => {
    const here = path ? `${path}.${key}` : key;
    const isLink = key === 'url' || LINK_KEYS.has(key) || (key.endsWith('_url') && !NOT_OURS.has(key));
    if (typeof field === 'string' && isLink && /^(https?:\/\/|\/)/.test(field))
      return [{ path: here, url: field }];
    return urlFields(field, here);
  });
}

/**
 * The seed flow (waldur-cli's provisioning and the vSphere integration guide: offering list and get,
 * projects, order create, order to done, the resource, its VM, stop, terminate) as the customer's
 * owner, on vcsim; after every answer, each URL it holds is followed with the same token and must
 * answer 200. Links are followed when met: a terminated VM's link is gone for good afterwards.
 */
describe('every url in every answer of the seed flow resolves', () => {
  let market: VsphereMarketplace;
  let network: Named;
  let folder: Named;
  const followed = new Map<string, number>();
  const dead: string[] = [];

  beforeAll(async () => {
    market = await VsphereMarketplace.start('linksresolve');
    ({ network, folder } = await market.vmPlacement());
  });

  afterAll(async () => {
    await market?.stop();
  });

  /**
   * The one link the flow meets that its user may not follow, by the declared access rules
   * (customers_retrieve is `customer-read`: an organisation is seen by its members): an offering's
   * `customer`, the provider's organisation. It must answer staff 200 and the member 404 (unseen),
   * so it is a link to a served object, not a dead one.
   */
  const providerLink = () => `${market.api.base}/api/customers/${String(market.offering.customer_uuid)}/`;

  /** A call of the flow as `member`; every link of its answer followed at once. */
  async function step<T>(method: string, path: string, body?: unknown): Promise<T> {
    const call = await market.api.call<T>('member', method, path, body);
    const answer = successBody(call, method, path);
    // A list's pagination links (`Link: <…>; rel="next"`) are URLs of the answer too.
    const paging = [...(call.headers.get('link') ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)].map(
      ([, url, rel]) => ({ path: `Link rel=${rel}`, url }),
    );
    for (const { path: where, url } of [...urlFields(answer), ...paging]) {
      const absolute = url.startsWith('/') ? `${market.api.base}${url}` : url;
      const limited = absolute === providerLink();
      if (!followed.has(absolute)) {
        const status = (await market.api.call('member', 'GET', absolute)).status;
        const asStaff = limited ? (await market.api.call('staff', 'GET', absolute)).status : 200;
        followed.set(absolute, limited && status === 404 && asStaff === 200 ? 200 : status);
      }
      const status = followed.get(absolute);
      if (status !== 200) dead.push(`${method} ${path} → ${where} = ${url}: ${status}`);
    }
    return answer;
  }

  async function untilDone(order: Order): Promise<Order> {
    const path = `/api/marketplace-orders/${order.uuid}/`;
    const done = await eventually(
      () => market.api.ok<Order>('member', 'GET', path),
      (current) => ['done', 'erred', 'canceled', 'rejected'].includes(current.state),
      120_000,
      `order ${order.uuid} to end`,
    );
    expect([done.state, done.error_message]).toEqual(['done', '']);
    return step<Order>('GET', path);
  }

  it('follows every link from the catalogue to the terminated VM and gets 200 for each', async () => {
    const offerings = await step<Named[]>(
      'GET',
      '/api/marketplace-public-offerings/?type=VMware.VirtualMachine',
    );
    const offering = offerings.find((candidate) => candidate.uuid === market.offering.uuid) as Named & {
      url: string;
      plans: { url: string }[];
    };
    await step('GET', `/api/marketplace-public-offerings/${offering.uuid}/`);
    const [project] = await step<(Named & { url: string })[]>(
      'GET',
      `/api/projects/?customer_uuid=${market.customer.uuid}`,
    );
    await step('GET', `/api/projects/${project.uuid}/`);
    const templates = await step<(Named & { url: string })[]>(
      'GET',
      `/api/vmware-templates/?settings_uuid=${String(offering.scope_uuid)}`,
    );
    await step(
      'GET',
      `/api/vmware-networks/?offering_uuid=${offering.uuid}&customer_uuid=${market.customer.uuid}`,
    );
    await step(
      'GET',
      `/api/vmware-folders/?offering_uuid=${offering.uuid}&customer_uuid=${market.customer.uuid}`,
    );

    const created = await step<Order>('POST', '/api/marketplace-orders/', {
      offering: offering.url,
      project: project.url,
      plan: offering.plans[0].url,
      attributes: {
        name: 'e2e-links',
        template: templates[0].url,
        cores_per_socket: 1,
        networks: [{ url: `${market.api.base}/api/vmware-networks/${network.uuid}/` }],
        folder: `${market.api.base}/api/vmware-folders/${folder.uuid}/`,
      },
      limits: { cpu: 1, ram: 1024 },
      accepting_terms_of_service: true,
    });
    const order = await untilDone(created);
    const resource = await step<Resource>('GET', order.marketplace_resource);
    await step('GET', `/api/marketplace-resources/?project_uuid=${project.uuid}`);
    await step('GET', `/api/marketplace-orders/?project_uuid=${project.uuid}`);

    // Waldur's way from the marketplace resource to its VM: `scope`.
    expect(resource.scope).toBe(`${market.api.base}/api/vmware-virtual-machine/${resource.resource_uuid}/`);
    const vm = await step<Vm>('GET', resource.scope as string);
    await step('GET', `/api/vmware-virtual-machine/?project_uuid=${project.uuid}`);
    await step('POST', `/api/vmware-virtual-machine/${vm.uuid}/stop/`);
    await eventually(
      () => step<Vm>('GET', vm.url),
      (current) => current.runtime_state === 'POWERED_OFF',
      60_000,
      'the VM powered off',
    );

    const terminate = await step<{ order_uuid: string }>(
      'POST',
      `/api/marketplace-resources/${resource.uuid}/terminate/`,
    );
    await untilDone({ uuid: terminate.order_uuid } as Order);
    const terminated = await step<Resource>('GET', order.marketplace_resource);
    expect(terminated.state).toBe('Terminated');
    expect(terminated.scope).toBeNull();
    // Two orders now (create, terminate): a page of one links the next with `Link`.
    await step('GET', `/api/marketplace-orders/?project_uuid=${project.uuid}&page_size=1`);
    expect([...followed.keys()].some((url) => /[?&]page=2\b/.test(url))).toBe(true);

    expect(dead).toEqual([]);
    // Not vacuous: the kinds of link the flow meets were all followed.
    const kinds = new Set([...followed.keys()].map((url) => new URL(url).pathname.split('/')[2]));
    for (const kind of [
      'marketplace-public-offerings',
      'marketplace-plans',
      'marketplace-orders',
      'marketplace-resources',
      'projects',
      'customers',
      'users',
      'vmware-templates',
      'vmware-networks',
      'vmware-folders',
      'vmware-virtual-machine',
      'vmware-disks',
      'vmware-ports',
      'service-settings',
    ])
      expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    expect([...followed.keys()]).toContain(offering.plans[0].url);
  });
});
