import { asArray, asBoolean, asMoRef, asString } from '../xml/values';
import { retrieveFromView } from '../property/container-view';
import type { RetrieveOptions } from '../property/retrieve';
import type { ClusterInfo, DatacenterInfo, HostInfo, ResourcePoolInfo } from '../types/inventory';
import type { MoRef } from '../types/mo-ref';
import type { VimContext } from '../types/vim-context';

const refs = (v: Parameters<typeof asArray>[0]): MoRef[] => asArray(v).flatMap((x) => asMoRef(x) ?? []);

/** Datacenters (name, vmFolder, hostFolder). One property-collector round trip (+ view create/destroy). */
export async function readDatacenters(ctx: VimContext, options?: RetrieveOptions): Promise<DatacenterInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    { types: ['Datacenter'], propSet: [{ type: 'Datacenter', pathSet: ['name', 'vmFolder', 'hostFolder'] }] },
    options,
  );
  return objects.map((o) => ({
    ref: o.obj,
    name: asString(o.props.get('name')) ?? '',
    vmFolder: asMoRef(o.props.get('vmFolder')),
    hostFolder: asMoRef(o.props.get('hostFolder')),
  }));
}

/** Clusters (ClusterComputeResource) with their root resource pool, hosts, datastores, networks. One property-collector round trip. */
export async function readClusters(ctx: VimContext, options?: RetrieveOptions): Promise<ClusterInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    {
      types: ['ClusterComputeResource'],
      propSet: [
        { type: 'ClusterComputeResource', pathSet: ['name', 'resourcePool', 'host', 'datastore', 'network'] },
      ],
    },
    options,
  );
  return objects.map((o) => ({
    ref: o.obj,
    name: asString(o.props.get('name')) ?? '',
    resourcePool: asMoRef(o.props.get('resourcePool')),
    hosts: refs(o.props.get('host')),
    datastores: refs(o.props.get('datastore')),
    networks: refs(o.props.get('network')),
  }));
}

/** Hosts (HostSystem: name, parent, connection state, maintenance mode). One property-collector round trip. */
export async function readHosts(ctx: VimContext, options?: RetrieveOptions): Promise<HostInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    {
      types: ['HostSystem'],
      propSet: [
        {
          type: 'HostSystem',
          pathSet: ['name', 'parent', 'runtime.connectionState', 'runtime.inMaintenanceMode'],
        },
      ],
    },
    options,
  );
  return objects.map((o) => ({
    ref: o.obj,
    name: asString(o.props.get('name')) ?? '',
    parent: asMoRef(o.props.get('parent')),
    connectionState: asString(o.props.get('runtime.connectionState')),
    inMaintenanceMode: asBoolean(o.props.get('runtime.inMaintenanceMode')),
  }));
}

/** Resource pools (name, parent, owner compute resource), root pools included. One property-collector round trip. */
export async function readResourcePools(
  ctx: VimContext,
  options?: RetrieveOptions,
): Promise<ResourcePoolInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    { types: ['ResourcePool'], propSet: [{ type: 'ResourcePool', pathSet: ['name', 'parent', 'owner'] }] },
    options,
  );
  return objects.map((o) => ({
    ref: o.obj,
    name: asString(o.props.get('name')) ?? '',
    parent: asMoRef(o.props.get('parent')),
    owner: asMoRef(o.props.get('owner')),
  }));
}
