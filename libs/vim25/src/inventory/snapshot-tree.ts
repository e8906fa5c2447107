import type { XmlValue } from '../xml/decoder';
import { asArray, asBoolean, asMoRef, asNumber, asObject, asString } from '../xml/values';
import type { SnapshotInfo, SnapshotTree } from '../types/snapshot';
import type { VirtualMachinePowerState } from '../types/virtual-machine';

function toTree(value: XmlValue): SnapshotTree[] {
  const o = asObject(value);
  const snapshot = asMoRef(o?.snapshot);
  if (o === undefined || snapshot === undefined) return [];
  return [
    {
      snapshot,
      name: asString(o.name) ?? '',
      description: asString(o.description) ?? '',
      id: asNumber(o.id) ?? 0,
      createTime: asString(o.createTime) ?? '',
      state: (asString(o.state) ?? 'poweredOff') as VirtualMachinePowerState,
      quiesced: asBoolean(o.quiesced) ?? false,
      children: asArray(o.childSnapshotList).flatMap(toTree),
    },
  ];
}

/** Maps a decoded VirtualMachineSnapshotInfo (the VM's `snapshot` property); undefined → none. Pure. */
export function toSnapshotInfo(value: XmlValue | undefined): SnapshotInfo | undefined {
  const o = asObject(value);
  if (o === undefined) return undefined;
  return {
    currentSnapshot: asMoRef(o.currentSnapshot),
    rootSnapshotList: asArray(o.rootSnapshotList).flatMap(toTree),
  };
}
