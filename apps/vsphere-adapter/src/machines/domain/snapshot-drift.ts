import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';

/** A VM's snapshot tree and consolidation flag as recorded: what a pull compares with vCenter's. */
export interface RecordedSnapshots {
  /** One line per snapshot, in the recorded order (see `snapshotLines`). */
  readonly lines: readonly string[];
  readonly consolidationNeeded: boolean;
}

/** A snapshot as one comparable line: every field the reconciler records. Pure. */
export function snapshotLine(s: {
  moref: string;
  parent: string | null;
  name: string;
  description: string;
  memory: boolean;
  quiesced: boolean;
  current: boolean;
  created: number;
}): string {
  return JSON.stringify([
    s.moref,
    s.parent,
    s.name,
    s.description,
    s.memory,
    s.quiesced,
    s.current,
    s.created,
  ]);
}

/** vCenter's tree of `remote` as the lines the reconciler would record (times to the millisecond). Pure. */
export function snapshotLines(remote: RemoteVm): string[] {
  return (remote.snapshots ?? []).map((s) =>
    snapshotLine({
      ...s,
      current: s.moref === remote.currentSnapshot,
      created: new Date(s.created).getTime(),
    }),
  );
}

/**
 * Whether recording vCenter's read would change the VM's snapshots or its consolidation flag: the
 * comparison VmSnapshotRepository.reconcile makes, so a pull finds a snapshot taken or removed in
 * vCenter. A read without the tree changes nothing. Pure.
 */
export function snapshotsDrifted(recorded: RecordedSnapshots, remote: RemoteVm): boolean {
  if (remote.snapshots === undefined) return false;
  if (recorded.consolidationNeeded !== (remote.consolidationNeeded ?? false)) return true;
  const lines = snapshotLines(remote);
  return lines.length !== recorded.lines.length || lines.some((line, i) => line !== recorded.lines[i]);
}
