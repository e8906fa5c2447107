import {
  asMoRef,
  readNetworks,
  retrieveObject,
  VimFault,
  type MoRef,
  type NetworkInfo,
  type ObjectContent,
  type VimConnection,
} from '@app/vim25';
import { ApiError } from './api-errors';

/** Reads `paths` of `obj` over SOAP; an object vcsim does not know is an INVALID_ARGUMENT naming it. */
export async function readObject(
  ctx: VimConnection,
  obj: MoRef,
  paths: readonly string[],
  what: string,
): Promise<ObjectContent> {
  try {
    const o = await retrieveObject(ctx.caller, ctx.content.propertyCollector, obj, paths);
    if (o !== undefined) return o;
  } catch (err) {
    if (!(err instanceof VimFault && err.faultType === 'ManagedObjectNotFound')) throw err;
  }
  throw new ApiError(
    'INVALID_ARGUMENT',
    `The ${what} ${obj.value} does not exist.`,
    'com.vmware.vapi.std.errors.invalid_argument',
    [obj.value],
  );
}

/** The root resource pool of cluster `cluster` (vCenter places a cluster deploy there). */
export async function clusterRootPool(ctx: VimConnection, cluster: string): Promise<string> {
  const o = await readObject(
    ctx,
    { type: 'ClusterComputeResource', value: cluster },
    ['resourcePool'],
    'cluster',
  );
  const pool = asMoRef(o.props.get('resourcePool'));
  if (pool === undefined)
    throw new ApiError(
      'INVALID_ARGUMENT',
      `The cluster ${cluster} has no resource pool.`,
      'com.vmware.vapi.std.errors.invalid_argument',
      [cluster],
    );
  return pool.value;
}

/** The root resource pool of host `host`'s compute resource (standalone host or cluster). */
export async function hostRootPool(ctx: VimConnection, host: string): Promise<string> {
  const h = await readObject(ctx, { type: 'HostSystem', value: host }, ['parent'], 'host');
  const parent = asMoRef(h.props.get('parent'));
  if (parent === undefined)
    throw new ApiError(
      'INVALID_ARGUMENT',
      `The host ${host} has no compute resource.`,
      'com.vmware.vapi.std.errors.invalid_argument',
      [host],
    );
  const c = await readObject(ctx, parent, ['resourcePool'], 'compute resource');
  return asMoRef(c.props.get('resourcePool'))?.value ?? '';
}

/** The network (standard, distributed port group or opaque) with moref value `id`. */
export async function findNetwork(ctx: VimConnection, id: string): Promise<NetworkInfo | undefined> {
  return (await readNetworks(ctx)).find((n) => n.ref.value === id);
}
