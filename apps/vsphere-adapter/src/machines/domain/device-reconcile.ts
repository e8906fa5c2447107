/** A recorded disk or adapter: its row and the vCenter device key it is bound to (null: not yet, or never). */
export interface RecordedDevice {
  readonly uuid: string;
  readonly key: number | null;
}

/** What bringing the rows in line with vCenter's devices takes. */
export interface DevicePlan<R extends RecordedDevice, D extends { readonly key: number }> {
  /** Rows whose device differs from what they record (size, MAC, network, connection). */
  readonly update: readonly { row: R; device: D }[];
  /** Devices no row records (added in vCenter directly): new rows. */
  readonly insert: readonly D[];
  /** Rows whose device vCenter no longer has. Rows without a key are never here. */
  readonly remove: readonly R[];
}

/**
 * Matches rows to vCenter's devices by key, never by label (labels are renumbered when a device
 * goes). `differs` says whether a matched row must be rewritten. Pure.
 */
export function planDeviceSync<R extends RecordedDevice, D extends { readonly key: number }>(
  rows: readonly R[],
  devices: readonly D[],
  differs: (row: R, device: D) => boolean,
): DevicePlan<R, D> {
  const byKey = new Map(rows.filter((r) => r.key !== null).map((r) => [r.key as number, r]));
  const present = new Set(devices.map((d) => d.key));
  const update: { row: R; device: D }[] = [];
  const insert: D[] = [];
  for (const device of devices) {
    const row = byKey.get(device.key);
    if (row === undefined) insert.push(device);
    else if (differs(row, device)) update.push({ row, device });
  }
  const remove = rows.filter((r) => r.key !== null && !present.has(r.key));
  return { update, insert, remove };
}
