import { asArray, asBoolean, asMoRef, asNumber, asString, pathOf } from '../xml/values';
import { retrieveFromView } from '../property/container-view';
import type { RetrieveOptions } from '../property/retrieve';
import type { DatastoreInfo, NetworkInfo, VmFolderInfo } from '../types/inventory';
import type { VimContext } from '../types/vim-context';

/** Datastores (name, summary.type/capacity/freeSpace/accessible; sizes in bytes). One property-collector round trip. */
export async function readDatastores(ctx: VimContext, options?: RetrieveOptions): Promise<DatastoreInfo[]> {
  const paths = [
    'name',
    'summary.type',
    'summary.capacity',
    'summary.freeSpace',
    'summary.accessible',
    'summary.url',
  ];
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    { types: ['Datastore'], propSet: [{ type: 'Datastore', pathSet: paths }] },
    options,
  );
  return objects.map((o) => ({
    ref: o.obj,
    name: asString(o.props.get('name')) ?? '',
    type: asString(o.props.get('summary.type')) ?? '',
    capacity: asNumber(o.props.get('summary.capacity')) ?? 0,
    freeSpace: asNumber(o.props.get('summary.freeSpace')) ?? 0,
    accessible: asBoolean(o.props.get('summary.accessible')) ?? false,
    url: asString(o.props.get('summary.url')),
  }));
}

/**
 * Networks: standard port groups (Network), distributed port groups with their switch's uuid,
 * opaque networks. The view holds networks and switches together, so this is one
 * property-collector round trip; the switch uuid is joined in memory.
 */
export async function readNetworks(ctx: VimContext, options?: RetrieveOptions): Promise<NetworkInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    {
      types: ['Network', 'DistributedVirtualSwitch'],
      propSet: [
        { type: 'Network', pathSet: ['name'] },
        {
          type: 'DistributedVirtualPortgroup',
          pathSet: ['name', 'key', 'config.distributedVirtualSwitch', 'tag'],
        },
        { type: 'OpaqueNetwork', pathSet: ['name', 'summary'] },
        { type: 'DistributedVirtualSwitch', pathSet: ['uuid', 'config.uplinkPortgroup'] },
      ],
    },
    options,
  );
  const switchUuids = new Map<string, string>();
  const uplinkPortgroups = new Set<string>();
  for (const o of objects) {
    const uuid = asString(o.props.get('uuid'));
    if (uuid !== undefined && !o.props.has('name')) switchUuids.set(o.obj.value, uuid);
    for (const pg of asArray(o.props.get('config.uplinkPortgroup')))
      uplinkPortgroups.add(asMoRef(pg)?.value ?? '');
  }
  const networks: NetworkInfo[] = [];
  for (const o of objects) {
    const name = asString(o.props.get('name'));
    if (name === undefined) continue; // a switch
    if (o.obj.type === 'DistributedVirtualPortgroup') {
      const switchRef = asMoRef(o.props.get('config.distributedVirtualSwitch'));
      const tags = asArray(o.props.get('tag')).map((t) => asString(pathOf(t, 'key')));
      networks.push({
        kind: 'distributed',
        ref: o.obj,
        name,
        portgroupKey: asString(o.props.get('key')) ?? o.obj.value,
        switchRef,
        switchUuid: switchRef ? switchUuids.get(switchRef.value) : undefined,
        uplink: tags.includes('SYSTEM/DVS.UPLINKPG') || uplinkPortgroups.has(o.obj.value),
      });
    } else if (o.obj.type === 'OpaqueNetwork') {
      const summary = o.props.get('summary');
      networks.push({
        kind: 'opaque',
        ref: o.obj,
        name,
        opaqueNetworkId: asString(pathOf(summary, 'opaqueNetworkId')) ?? '',
        opaqueNetworkType: asString(pathOf(summary, 'opaqueNetworkType')) ?? '',
      });
    } else {
      networks.push({ kind: 'standard', ref: o.obj, name });
    }
  }
  return networks;
}

/** Folders that can hold VMs (childType includes VirtualMachine). One property-collector round trip. */
export async function readVmFolders(ctx: VimContext, options?: RetrieveOptions): Promise<VmFolderInfo[]> {
  const objects = await retrieveFromView(
    ctx.caller,
    ctx.content,
    { types: ['Folder'], propSet: [{ type: 'Folder', pathSet: ['name', 'parent', 'childType'] }] },
    options,
  );
  return objects
    .filter((o) => asArray(o.props.get('childType')).some((t) => asString(t) === 'VirtualMachine'))
    .map((o) => ({
      ref: o.obj,
      name: asString(o.props.get('name')) ?? '',
      parent: asMoRef(o.props.get('parent')),
    }));
}
