import {
  asObject,
  readVmDevices,
  runTask,
  vmObject,
  type MoRef,
  type VimContext,
  type VmDevice,
} from '@app/vim25';

/**
 * After a ReconfigVM_Task added adapters to a running VM: the new adapters (by key, in the order
 * the spec added them, as vcsim numbers them) that the client did not ask connected but vcsim
 * connected are edited to `connected: false`, sent back whole, as vCenter leaves them until the
 * next power-on. `wanted[i]` is whether the i-th added adapter was asked connected.
 */
export async function disconnectNewNics(
  ctx: VimContext,
  vm: MoRef,
  before: readonly VmDevice[],
  wanted: readonly boolean[],
): Promise<void> {
  const known = new Set(before.map((d) => d.key));
  const added = (await readVmDevices(ctx, vm))
    .filter((d) => d.kind === 'nic' && !known.has(d.key))
    .sort((a, b) => a.key - b.key);
  const edits = added.filter((nic, i) => wanted[i] === false && nic.kind === 'nic' && nic.connected === true);
  if (edits.length === 0) return;
  const deviceChange = edits.map((nic) => ({
    operation: 'edit',
    device: { ...nic.raw, connectable: { ...asObject(nic.raw.connectable), connected: false } },
  }));
  await runTask(ctx, (o) => vmObject(ctx, vm).reconfigure({ deviceChange }, o));
}
