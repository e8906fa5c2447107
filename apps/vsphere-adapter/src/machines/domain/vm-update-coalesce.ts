import type { RemoteVm } from '../../vcenter/ports/vm-provisioner.port';
import type { VmPatch, VmUpdate } from '../../vcenter/ports/vm-watch.port';

/**
 * What one answer of the live subscription leaves to record of one VM, its updates folded in
 * vCenter's order: the VM whole (an `enter`, figures assigned after it merged in), some figures
 * (`modify`s of figures only, merged), gone (`leave`), or to be read as it is now (a change the
 * answer does not carry whole: devices, snapshots, identity, a template).
 */
export type VmChange =
  | { readonly moref: string; readonly kind: 'whole'; readonly remote: RemoteVm }
  | { readonly moref: string; readonly kind: 'patch'; readonly patch: VmPatch }
  | { readonly moref: string; readonly kind: 'gone' }
  | { readonly moref: string; readonly kind: 'read' };

function fold(before: VmChange | undefined, update: VmUpdate): VmChange {
  const moref = update.moref;
  if (update.kind === 'leave') return { moref, kind: 'gone' };
  if (update.kind === 'enter')
    return update.remote === undefined
      ? { moref, kind: 'read' }
      : { moref, kind: 'whole', remote: update.remote };
  const patch = update.patch;
  if (patch === undefined) return { moref, kind: 'read' };
  if (before === undefined) return { moref, kind: 'patch', patch };
  if (before.kind === 'whole') return { moref, kind: 'whole', remote: { ...before.remote, ...patch } };
  if (before.kind === 'patch') return { moref, kind: 'patch', patch: { ...before.patch, ...patch } };
  // A VM to read is read after the answer, as it is then; a modify after a leave is read too.
  return { moref, kind: 'read' };
}

/**
 * The VMs an answer names, each once, in the order vCenter first named them, each with what its
 * updates leave to record (its last state, not each step: a burst costs one record per VM). Pure.
 */
export function coalesceUpdates(updates: readonly VmUpdate[]): VmChange[] {
  const byMoref = new Map<string, VmChange>();
  for (const update of updates) byMoref.set(update.moref, fold(byMoref.get(update.moref), update));
  return [...byMoref.values()];
}

/**
 * `changes` with the VMs `deferred` names (left by an earlier answer while an operation of theirs
 * ran) to be read as they are now, unless `changes` has them already. Pure.
 */
export function withDeferred(changes: readonly VmChange[], deferred: ReadonlySet<string>): VmChange[] {
  if (deferred.size === 0) return [...changes];
  const named = new Set(changes.map((change) => change.moref));
  const reads = [...deferred]
    .filter((moref) => !named.has(moref))
    .map((moref) => ({ moref, kind: 'read' as const }));
  return [...changes, ...reads];
}
