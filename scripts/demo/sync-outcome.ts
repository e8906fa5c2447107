/** The parts of the integration's view (`GET .../integration/`) that say how synchronisation went. */
export interface SyncTimes {
  readonly state: string;
  readonly error_message: string;
  readonly last_sync_started: string | null;
  readonly last_sync_finished: string | null;
}

export type SyncOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * How the latest synchronisation went, if it started at or after `savedAt` (the `modified` of the
 * save that requested it) and has finished; undefined while none has. A run that was under way
 * during the save used the settings before it, so it does not count. Both times come from the
 * adapter's host clock (the save's stamp, the run's claim), so they compare. Pure.
 */
export function outcomeSince(view: SyncTimes, savedAt: string): SyncOutcome | undefined {
  if (view.last_sync_started === null || view.last_sync_finished === null) return undefined;
  const started = Date.parse(view.last_sync_started);
  if (started < Date.parse(savedAt) || Date.parse(view.last_sync_finished) < started) return undefined;
  return view.state === 'OK' ? { ok: true } : { ok: false, message: view.error_message || view.state };
}
