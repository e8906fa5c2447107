/** Anything vCenter identifies: its managed object id, or its Content Library item id. */
export interface BackendKeyed {
  readonly backendId: string;
}

export interface InventoryDiff<E extends BackendKeyed, F extends BackendKeyed> {
  /** In vCenter, not here yet. */
  readonly create: F[];
  /** In both and different. */
  readonly update: { existing: E; fresh: F }[];
  /** Here, no longer in vCenter. */
  readonly remove: E[];
  readonly unchanged: number;
}

/**
 * What a synchronisation changes for one kind of object: compares the stored objects with those
 * vCenter holds now, by vCenter's id. `keep` names ids that vCenter still holds but that could not
 * be read this time (they are neither updated nor removed). A duplicate id in `fresh` counts once
 * (the first). Pure.
 */
export function diffInventory<E extends BackendKeyed, F extends BackendKeyed>(
  existing: readonly E[],
  fresh: readonly F[],
  same: (existing: E, fresh: F) => boolean,
  keep: ReadonlySet<string> = new Set(),
): InventoryDiff<E, F> {
  const stored = new Map(existing.map((e) => [e.backendId, e]));
  const seen = new Set<string>();
  const create: F[] = [];
  const update: { existing: E; fresh: F }[] = [];
  let unchanged = 0;
  for (const f of fresh) {
    if (seen.has(f.backendId)) continue;
    seen.add(f.backendId);
    const e = stored.get(f.backendId);
    if (e === undefined) create.push(f);
    else if (same(e, f)) unchanged++;
    else update.push({ existing: e, fresh: f });
  }
  const remove = existing.filter((e) => !seen.has(e.backendId) && !keep.has(e.backendId));
  return { create, update, remove, unchanged };
}
