import type { SoapCaller } from '../soap/soap-transport';
import { VimFault, VimTransportError } from '../soap/vim-errors';
import {
  createFilter,
  createPropertyCollector,
  destroyPropertyCollector,
  waitForUpdatesEx,
} from '../methods/property-collector';
import type { MoRef } from '../types/mo-ref';
import type { ObjectUpdate, PropertyFilterSpec } from '../types/property';

/** Options of a property-collector watch. */
export interface WatchOptions {
  readonly signal?: AbortSignal;
  /** Overall deadline in ms; default 10 minutes. */
  readonly timeoutMs?: number;
  /** Longest single WaitForUpdatesEx hold in seconds; default 60. */
  readonly maxWaitSeconds?: number;
}

/**
 * Watches `spec` through WaitForUpdatesEx (vCenter pushes changes; no polling interval) until
 * `onUpdate` returns a value, and returns it. Uses a private PropertyCollector so that concurrent
 * watches on one session never steal each other's updates. Cost: CreatePropertyCollector +
 * CreateFilter + one held WaitForUpdatesEx per change batch + DestroyPropertyCollector.
 * Throws VimTransportError `timeout`/`aborted` when the deadline passes or the signal fires.
 */
export async function watchProperties<T>(
  caller: SoapCaller,
  collector: MoRef,
  spec: PropertyFilterSpec,
  onUpdate: (update: ObjectUpdate) => T | undefined,
  options: WatchOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  try {
    return await watchOnce(caller, collector, spec, onUpdate, options, deadline);
  } catch (err) {
    // A re-login in between drops the private collector with the old session: start over once
    // (the first WaitForUpdatesEx then reports the current state again).
    const lost =
      err instanceof VimFault &&
      err.faultType === 'ManagedObjectNotFound' &&
      err.operation !== 'CreatePropertyCollector';
    if (!lost || Date.now() >= deadline) throw err;
    return watchOnce(caller, collector, spec, onUpdate, options, deadline);
  }
}

async function watchOnce<T>(
  caller: SoapCaller,
  collector: MoRef,
  spec: PropertyFilterSpec,
  onUpdate: (update: ObjectUpdate) => T | undefined,
  options: WatchOptions,
  deadline: number,
): Promise<T> {
  const timeoutMs = Math.max(1, deadline - Date.now());
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
    : AbortSignal.timeout(timeoutMs);
  const maxWait = options.maxWaitSeconds ?? 60;
  const remaining = (): number => Math.max(1, deadline - Date.now());
  const stopped = (): VimTransportError => {
    const aborted = options.signal?.aborted ?? false;
    return new VimTransportError(
      'WaitForUpdatesEx',
      aborted ? 'aborted' : 'timeout',
      aborted
        ? 'WaitForUpdatesEx was aborted by the caller'
        : `WaitForUpdatesEx: no result within ${options.timeoutMs ?? 600_000} ms`,
    );
  };
  let pc: MoRef;
  try {
    pc = await createPropertyCollector(caller, collector, { signal, timeoutMs: remaining() });
  } catch (err) {
    throw signal.aborted ? stopped() : err;
  }
  try {
    await createFilter(caller, pc, spec, false, { signal, timeoutMs: remaining() });
    let version = '';
    for (;;) {
      if (signal.aborted) break;
      const waitSeconds = Math.max(1, Math.min(maxWait, Math.floor(remaining() / 1000)));
      // The HTTP timeout is the overall deadline; vCenter answers (empty) after waitSeconds.
      const updates = await waitForUpdatesEx(caller, pc, version, waitSeconds, {
        signal,
        timeoutMs: remaining(),
      });
      if (updates === undefined) continue;
      version = updates.version;
      for (const update of updates.objects) {
        const result = onUpdate(update);
        if (result !== undefined) return result;
      }
    }
    throw stopped();
  } catch (err) {
    // The combined signal fired: report the caller's abort or the deadline, not a socket error.
    throw signal.aborted ? stopped() : err;
  } finally {
    await destroyPropertyCollector(caller, pc, { timeoutMs: 10_000 }).catch(() => undefined);
  }
}
