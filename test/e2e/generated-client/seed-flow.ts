import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api-schema';

/**
 * The seed flow as a script would write it with a client generated from our `/api/schema/`
 * (openapi-typescript's types, openapi-fetch's calls): every path, parameter, body and answer is
 * typed from the document, and the models carry Waldur's names. It imports nothing of this
 * repository but the generated file, so `tsc` checks it on its own (generated-client.e2e-spec.ts).
 */
export type Models = components['schemas'];
export type ApiClient = Client<paths>;

/** A client of the API with a user's token, as a script makes one. */
export function apiClient(baseUrl: string, token: string): ApiClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token}` } });
}

/** The body of a successful answer; a refusal is thrown with its status and body. */
async function ok<T>(
  what: string,
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined)
    throw new Error(`${what}: ${response.status} ${JSON.stringify(error ?? null)}`);
  return data;
}

export function publicOfferings(client: ApiClient): Promise<Models['PublicOfferingDetails'][]> {
  return ok(
    'list offerings',
    client.GET('/api/marketplace-public-offerings/', { params: { query: { page_size: 100 } } }),
  );
}

export function publicOffering(client: ApiClient, uuid: string): Promise<Models['PublicOfferingDetails']> {
  return ok(
    'get the offering',
    client.GET('/api/marketplace-public-offerings/{uuid}/', { params: { path: { uuid } } }),
  );
}

export function createProject(client: ApiClient, customer: string, name: string): Promise<Models['Project']> {
  const body: Models['ProjectRequest'] = { customer, name, description: 'made by a generated client' };
  return ok('create a project', client.POST('/api/projects/', { body }));
}

/** What a VM order links to: the offering's templates, clusters, networks and folders the caller may use. */
export async function placement(
  client: ApiClient,
  offering_uuid: string,
): Promise<{
  templates: Models['VmwareTemplate'][];
  clusters: Models['VmwareCluster'][];
  networks: Models['VmwareNetwork'][];
  folders: Models['VmwareFolder'][];
}> {
  const query = { offering_uuid, page_size: 100 };
  const [templates, clusters, networks, folders] = await Promise.all([
    ok('list templates', client.GET('/api/vmware-templates/', { params: { query } })),
    ok('list clusters', client.GET('/api/vmware-clusters/', { params: { query } })),
    ok('list networks', client.GET('/api/vmware-networks/', { params: { query } })),
    ok('list folders', client.GET('/api/vmware-folders/', { params: { query } })),
  ]);
  return { templates, clusters, networks, folders };
}

export async function orderVm(
  client: ApiClient,
  links: {
    offering: string;
    plan: string;
    project: string;
    template: string;
    cluster: string;
    network: string;
    folder: string;
  },
  name: string,
): Promise<Models['OrderDetails']> {
  const body: Models['OrderCreateRequest'] = {
    offering: links.offering,
    plan: links.plan,
    project: links.project,
    type: 'Create',
    attributes: {
      name,
      template: links.template,
      cluster: links.cluster,
      networks: [{ url: links.network }],
      folder: links.folder,
      cores_per_socket: 1,
    },
    limits: { cpu: 1, ram: 1024 },
    accepting_terms_of_service: true,
  };
  const created = await ok('order a VM', client.POST('/api/marketplace-orders/', { body }));
  // The document says a create answers the order (201), or with `dry_run` the order it would be (200).
  if (!('uuid' in created)) throw new Error('the order was not created');
  return created;
}

export function getOrder(client: ApiClient, uuid: string): Promise<Models['OrderDetails']> {
  return ok('get the order', client.GET('/api/marketplace-orders/{uuid}/', { params: { path: { uuid } } }));
}

export function resourceOfOrder(client: ApiClient, uuid: string): Promise<Models['Resource']> {
  return ok(
    "get the order's resource",
    client.GET('/api/marketplace-orders/{uuid}/resource/', { params: { path: { uuid } } }),
  );
}

export function getResource(client: ApiClient, uuid: string): Promise<Models['Resource']> {
  return ok(
    'get the resource',
    client.GET('/api/marketplace-resources/{uuid}/', { params: { path: { uuid } } }),
  );
}

export function getVm(client: ApiClient, uuid: string): Promise<Models['VmwareVirtualMachine']> {
  return ok('get the VM', client.GET('/api/vmware-virtual-machine/{uuid}/', { params: { path: { uuid } } }));
}

export function stopVm(client: ApiClient, uuid: string): Promise<Models['VmwareOperation']> {
  return ok(
    'stop the VM',
    client.POST('/api/vmware-virtual-machine/{uuid}/stop/', { params: { path: { uuid } } }),
  );
}

export function terminate(client: ApiClient, uuid: string): Promise<Models['OrderUUID']> {
  return ok(
    'terminate the resource',
    client.POST('/api/marketplace-resources/{uuid}/terminate/', { params: { path: { uuid } }, body: {} }),
  );
}
