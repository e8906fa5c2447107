import type { SoapCaller } from '../soap/soap-transport';
import type { XmlValue } from '../xml/decoder';
import { faultFromLocalized } from '../xml/fault-reader';
import { asString } from '../xml/values';
import type { TaskHandle } from '../objects/task-handle';
import { watchProperties, type WatchOptions } from '../property/wait-for-updates';
import type { MoRef } from '../types/mo-ref';
import type { TaskInfoState } from '../types/task-info';

/** Options of a task wait: AbortSignal, overall timeout (default 10 min), longest single hold. */
export type TaskWaitOptions = WatchOptions;

type Outcome =
  | { readonly ok: true; readonly result: XmlValue | undefined }
  | { readonly ok: false; readonly error: XmlValue | undefined };

/**
 * Waits until vim25 Task `task` ends, watching `info.state`/`info.error`/`info.result` through
 * WaitForUpdatesEx (pushed by vCenter, no 1 s poll). Returns `info.result` on success; a failed
 * task throws VimFault (operation = the `*_Task` method, faultType e.g. InvalidPowerState,
 * message = vCenter's localizedMessage). Cost: ~4 round trips, one of them held until the end.
 */
export async function waitForTask(
  caller: SoapCaller,
  collector: MoRef,
  task: TaskHandle,
  options: TaskWaitOptions = {},
): Promise<XmlValue | undefined> {
  const info: { state?: TaskInfoState; error?: XmlValue; result?: XmlValue } = {};
  const outcome = await watchProperties<Outcome>(
    caller,
    collector,
    {
      propSet: [{ type: 'Task', pathSet: ['info.state', 'info.error', 'info.result'] }],
      objectSet: [{ obj: task.ref, skip: false }],
    },
    (update) => {
      for (const change of update.changeSet) {
        const removed = change.op === 'remove' || change.op === 'indirectRemove';
        if (change.name === 'info.state') info.state = asString(change.val) as TaskInfoState | undefined;
        else if (change.name === 'info.error') info.error = removed ? undefined : change.val;
        else if (change.name === 'info.result') info.result = removed ? undefined : change.val;
      }
      if (info.state === 'success') return { ok: true, result: info.result };
      if (info.state === 'error') return { ok: false, error: info.error };
      return undefined;
    },
    options,
  );
  if (!outcome.ok) throw faultFromLocalized(task.operation, outcome.error);
  return outcome.result;
}
