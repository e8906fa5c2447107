import {
  asMoRef,
  powerOnVm,
  asString,
  retrieveFromView,
  VimFault,
  readVmDevices,
  type MoRef,
  type NetworkInfo,
  type VimConnection,
} from '@app/vim25';
import { ApiError } from './api-errors';
import { applyDeployFixups } from './deploy-fixups';
import {
  jsonBody,
  requireSession,
  type ApiAnswer,
  type ApiRequest,
  type FrontContext,
  type UndescribedDetails,
} from './front-context';
import { itemNotFound, libraryNotFound } from './library-routes';
import { clusterRootPool, findNetwork, hostRootPool, readObject } from './soap-lookups';
import { templateDetails } from './template-details';
import { VCSIM_REST } from './vcsim-rest';

type Json = Record<string, unknown>;

const invalid = (message: string, ...args: string[]): ApiError =>
  new ApiError('INVALID_ARGUMENT', message, 'com.vmware.vapi.std.errors.invalid_argument', args);

function obj(v: unknown, field: string): Json | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && !Array.isArray(v)) return v as Json;
  throw invalid(`${field} must be a structure.`, field);
}

function str(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && v !== '') return v;
  throw invalid(`${field} must be a non-empty string.`, field);
}

function required(v: unknown, field: string): string {
  const s = str(v, field);
  if (s === undefined) throw invalid(`${field} is required.`, field);
  return s;
}

function positive(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  throw invalid(`${field} must be a positive integer.`, field);
}

/** The vm-template item `id` and the template VM vcsim keeps for it; unknown: NOT_FOUND, other type: INVALID_ARGUMENT. */
async function templateOf(ctx: FrontContext, id: string, session: string): Promise<MoRef> {
  const item = (await ctx.rest.ok(
    'GET',
    VCSIM_REST.itemId(id),
    { operation: 'vm_template.library_items', notFound: itemNotFound(id) },
    { session },
  )) as Json | null;
  if (item?.type !== 'vm-template') throw invalid(`Library item ${id} is not a VM template.`, id);
  const value = (item.Template as Json | undefined)?.Value;
  if (typeof value !== 'string') {
    throw new ApiError(
      'ERROR',
      `vcsim keeps no template VM for item ${id}.`,
      'com.vmware.vapi.std.errors.error',
    );
  }
  return { type: 'VirtualMachine', value };
}

/** The pool vCenter derives from a placement: resource_pool, else the cluster's or the host's root pool. */
async function placementPool(ctx: FrontContext, placement: Json): Promise<string | undefined> {
  const pool = str(placement.resource_pool, 'placement.resource_pool');
  if (pool !== undefined) return pool;
  const cluster = str(placement.cluster, 'placement.cluster');
  if (cluster !== undefined) return clusterRootPool(await ctx.soap(), cluster);
  const host = str(placement.host, 'placement.host');
  if (host !== undefined) return hostRootPool(await ctx.soap(), host);
  return undefined;
}

// What vCenter 8 answers for an item it cannot describe (see front-context.ts): 200 all the same.
const UNDESCRIBED: Record<UndescribedDetails, ApiAnswer> = {
  empty: { status: 200 },
  null: { status: 200, body: null },
  skeleton: { status: 200, body: { cpu: {}, memory: {}, vm_home_storage: {} } },
};

/**
 * `GET /api/vcenter/vm-template/library-items/{id}` → the template's details, built over SOAP.
 * vCenter answers 200 with an empty body for an item that holds no VM template (an OVF item), and
 * empty, null or a skeleton for a template it cannot describe (marked by the test).
 */
export async function getVmTemplate(ctx: FrontContext, req: ApiRequest, id: string): Promise<ApiAnswer> {
  const session = await requireSession(ctx, req);
  const item = (await ctx.rest.ok(
    'GET',
    VCSIM_REST.itemId(id),
    { operation: 'vm_template.library_items.get', notFound: itemNotFound(id) },
    { session },
  )) as Json | null;
  if (item?.type !== 'vm-template') return UNDESCRIBED.empty;
  const undescribed = ctx.undescribedTemplates.get(id);
  if (undescribed !== undefined) return UNDESCRIBED[undescribed];
  const template = await templateOf(ctx, id, session);
  return { status: 200, body: await templateDetails(await ctx.soap(), template) };
}

/**
 * `POST /api/vcenter/vm-template/library-items` (body: the create spec) → 201 with the item id.
 * vcsim crashes without `placement.folder` and needs a pool: the front supplies the source VM's
 * folder and pool when the spec leaves them unset, as vCenter documents.
 */
export async function createVmTemplate(ctx: FrontContext, req: ApiRequest): Promise<ApiAnswer> {
  const session = await requireSession(ctx, req);
  const spec = jsonBody(req);
  const sourceVm = required(spec.source_vm, 'source_vm');
  required(spec.name, 'name');
  const library = required(spec.library, 'library');
  const placement = obj(spec.placement, 'placement') ?? {};
  const soap = await ctx.soap();
  const source = await readObject(
    soap,
    { type: 'VirtualMachine', value: sourceVm },
    ['parent', 'resourcePool'],
    'virtual machine',
  );
  const folder = str(placement.folder, 'placement.folder') ?? asMoRef(source.props.get('parent'))?.value;
  const pool = (await placementPool(ctx, placement)) ?? asMoRef(source.props.get('resourcePool'))?.value;
  const body = { spec: { ...spec, placement: { ...placement, folder, resource_pool: pool } } };
  const id = await ctx.rest.ok(
    'POST',
    VCSIM_REST.vmTemplates,
    { operation: 'vm_template.library_items.create', notFound: libraryNotFound(library) },
    { session, body },
  );
  return { status: 201, body: id };
}

/**
 * `POST /api/vcenter/vm-template/library-items/{id}?action=deploy` → 200 with the VM id. Cluster
 * placement goes to the cluster's root pool; after vcsim's clone the VM gets what vCenter gives it
 * (see deploy-fixups.ts). Validated first, like vCenter: unknown NIC keys or networks, CPUs not a
 * multiple of the cores per socket, a placement without pool, cluster or host are INVALID_ARGUMENT.
 */
export async function deployVmTemplate(ctx: FrontContext, req: ApiRequest, id: string): Promise<ApiAnswer> {
  const session = await requireSession(ctx, req);
  const template = await templateOf(ctx, id, session);
  const spec = jsonBody(req);
  const name = required(spec.name, 'name');
  const placement = obj(spec.placement, 'placement');
  if (placement === undefined) throw invalid('placement is required.', 'placement');
  const soap = await ctx.soap();
  const pool = await placementPool(ctx, placement);
  if (pool === undefined) throw invalid('placement needs a resource_pool, a cluster or a host.', 'placement');
  const host = str(placement.host, 'placement.host');
  // vCenter 8: "This field is currently required" (DeployPlacementSpec.folder); nothing is created.
  const folder = required(placement.folder, 'placement.folder');
  const datastore =
    str(obj(spec.disk_storage, 'disk_storage')?.datastore, 'disk_storage.datastore') ??
    str(obj(spec.vm_home_storage, 'vm_home_storage')?.datastore, 'vm_home_storage.datastore');

  const hardware = obj(spec.hardware_customization, 'hardware_customization') ?? {};
  const cpu = obj(hardware.cpu_update, 'hardware_customization.cpu_update') ?? {};
  const numCPUs = positive(cpu.num_cpus, 'cpu_update.num_cpus');
  const numCoresPerSocket = positive(cpu.num_cores_per_socket, 'cpu_update.num_cores_per_socket');
  if (numCoresPerSocket !== undefined && (numCPUs ?? 1) % numCoresPerSocket !== 0) {
    throw invalid(`num_cpus ${numCPUs ?? 1} is not a multiple of num_cores_per_socket ${numCoresPerSocket}.`);
  }
  const memoryMB = positive(obj(hardware.memory_update, 'memory_update')?.memory, 'memory_update.memory');
  const nics = new Map<number, NetworkInfo>();
  const nicSpec = obj(hardware.nics, 'hardware_customization.nics') ?? {};
  if (Object.keys(nicSpec).length > 0) {
    const templateNics = new Set(
      (await readVmDevices(soap, template)).filter((d) => d.kind === 'nic').map((d) => String(d.key)),
    );
    for (const [key, value] of Object.entries(nicSpec)) {
      if (!templateNics.has(key)) throw invalid(`The template has no network adapter with key ${key}.`, key);
      const network = str(obj(value, `nics.${key}`)?.network, `nics.${key}.network`);
      if (network === undefined) continue;
      const found = await findNetwork(soap, network);
      if (found === undefined) throw invalid(`The network ${network} does not exist.`, network);
      nics.set(Number(key), found);
    }
  }
  if (spec.powered_on !== undefined && typeof spec.powered_on !== 'boolean')
    throw invalid('powered_on must be a boolean.', 'powered_on');

  const description = str(spec.description, 'description');
  const restSpec = {
    name,
    description,
    placement: { folder, resource_pool: pool, host },
    disk_storage: datastore === undefined ? undefined : { datastore },
    powered_on: false,
  };
  // vCenter refuses a second VM of the same name in a folder (DuplicateName); vcsim clones it. The
  // check and the clone run one deploy at a time, so two racing deploys cannot both pass it.
  const vm = await ctx.deploys.run(async () => {
    // The folder's own VMs only (a view on the folder, not recursive): one cheap read per deploy.
    const inFolder = await retrieveFromView(soap.caller, soap.content, {
      types: ['VirtualMachine'],
      propSet: [{ type: 'VirtualMachine', pathSet: ['name'] }],
      container: { type: 'Folder', value: folder },
      recursive: false,
    }).catch((err: unknown) => {
      if (err instanceof VimFault && err.faultType === 'ManagedObjectNotFound')
        throw invalid(`The folder ${folder} does not exist.`, folder);
      throw err;
    });
    const taken = inFolder.some((o) => asString(o.props.get('name')) === name);
    if (taken)
      throw new ApiError(
        'ALREADY_EXISTS',
        `The name '${name}' already exists.`,
        'com.vmware.vapi.std.errors.already_exists',
        [name],
      );
    const made = await ctx.rest.ok(
      'POST',
      VCSIM_REST.deploy(id),
      { operation: 'vm_template.library_items.deploy', notFound: itemNotFound(id) },
      { session, body: { spec: restSpec } },
    );
    if (typeof made !== 'string')
      throw new ApiError(
        'ERROR',
        'vcsim answered the deploy without a VM id.',
        'com.vmware.vapi.std.errors.error',
      );
    return made;
  });
  await applyDeployFixups(
    soap,
    { type: 'VirtualMachine', value: vm },
    {
      pool: { type: 'ResourcePool', value: pool },
      host: host === undefined ? undefined : { type: 'HostSystem', value: host },
      numCPUs,
      numCoresPerSocket,
      memoryMB,
      nics,
      annotation: description,
    },
  );
  if (ctx.deployAnswerDelayMs > 0)
    await new Promise((resolve) => setTimeout(resolve, ctx.deployAnswerDelayMs));
  // vCenter 8 powers on (and customises the guest) asynchronously after the deploy answered: a
  // failure then does not fail the deploy and leaves the VM off.
  if (spec.powered_on === true) setTimeout(() => void powerOnLater(soap, vm), 50);
  return { status: 200, body: vm };
}

async function powerOnLater(soap: VimConnection, vm: string): Promise<void> {
  await powerOnVm(soap, { type: 'VirtualMachine', value: vm }, { timeoutMs: 60_000 }).catch(() => undefined);
}
