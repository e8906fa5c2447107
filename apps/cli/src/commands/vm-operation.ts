import { setTimeout as sleep } from 'node:timers/promises';
import { API_PATHS, fillPath } from '@app/contracts/http/api-paths';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { EXIT } from '../exit-codes';
import { retryDelayMs } from '../http/retry-policy';
import { EventStream, StreamUnavailable } from '../wait/event-stream';
import { startProgress } from '../wait/progress';

type Json = Record<string, unknown>;

export interface OperationFlags {
  /** `--wait`: follow the operation to its end. */
  wait?: boolean;
  timeout: number;
  interval: number;
}

export const OPERATION_COLUMNS = ['uuid', 'operation', 'state', 'status', 'vm_uuid', 'error_message'];

const ENDED = ['done', 'erred'];

/**
 * Whether an operation a VmChanged carries is the one `answer` started: the operation itself (an
 * action, a resize, an extend, a delete: 202 with it), or the one making the disk or adapter that a
 * create answered with (201 with the device).
 */
export function isOperationOf(operation: Json, answer: Json): boolean {
  return [operation.uuid, operation.disk_uuid, operation.port_uuid].includes(answer.uuid);
}

/**
 * Sends a day-2 request of VM `vmUuid` (`send`) and prints its answer; with `--wait`, follows the
 * VM's VmChanged events until the operation it started ends, then prints the VM as the last event
 * shows it (its `operation` included). The stream is opened before the request is sent, so the end
 * of a quick operation is not missed; a stream that cannot be opened fails before anything is sent.
 * An operation that ends erred exits 5 with vCenter's message; `--timeout` exits 6 and leaves it
 * running. A request is never sent twice.
 */
export async function runVmOperation(
  context: CommandContext,
  vmUuid: string,
  flags: OperationFlags,
  send: () => Promise<Json | undefined>,
  columns: readonly string[] = OPERATION_COLUMNS,
): Promise<void> {
  if (!flags.wait) {
    const answer = await send();
    context.print(answer ?? { deleted: true }, columns);
    return;
  }
  const vm = (await context.client.get<Json>(fillPath(API_PATHS.vmwareVirtualMachine, { uuid: vmUuid })))
    .body;
  const query = { resource_uuid: String(vm.marketplace_resource_uuid), type: 'VmChanged' };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), flags.timeout * 1000);
  let stream: EventStream | undefined;
  try {
    stream = await EventStream.open(context.client, API_PATHS.events, query, {
      signal: controller.signal,
      log: context.log,
    });
  } catch (error) {
    clearTimeout(timer);
    if (!(error instanceof StreamUnavailable)) throw error;
    throw new CliError(
      `--wait follows the VM on the event stream, which cannot be opened (${error.message}); nothing was sent`,
      EXIT.unavailable,
    );
  }
  let answer: Json | undefined;
  try {
    answer = await send();
  } catch (error) {
    clearTimeout(timer);
    controller.abort();
    throw error;
  }
  // 204: a device vCenter never had is gone at once; nothing runs.
  if (answer === undefined) {
    clearTimeout(timer);
    controller.abort();
    context.print({ deleted: true }, columns);
    return;
  }
  const accepted = answer;
  const label = `operation of vm ${vmUuid}`;
  const progress = startProgress(label, context.interactive);
  let lastState = typeof accepted.state === 'string' ? accepted.state : 'pending';
  try {
    const ended = await followStream(context, stream, query, controller.signal, vmUuid, (operation) => {
      if (!isOperationOf(operation, accepted)) return false;
      lastState = String(operation.state);
      progress.update(operation);
      return ENDED.includes(lastState);
    });
    if (!ended) {
      throw new CliError(
        `timed out after ${flags.timeout}s waiting for the ${label} (last state: ${lastState}) -- it goes on; nothing was canceled`,
        EXIT.timeout,
      );
    }
    const operation = ended.operation as Json;
    if (operation.state === 'erred')
      throw new CliError(
        `${String(operation.operation)} of vm ${vmUuid} erred: ${String(operation.error_message)}`,
        EXIT.orderFailed,
        operation,
      );
    progress.stop();
    context.print(ended, ['uuid', 'name', 'state', 'runtime_state', 'cores', 'ram', 'disk', 'operation']);
  } finally {
    progress.stop();
    clearTimeout(timer);
    controller.abort();
  }
}

/**
 * The first VmChanged of the VM whose operation `isEnd` accepts, or undefined on timeout. A dropped
 * stream is reopened after its last event (`Last-Event-ID`) under the GET retry rules.
 */
async function followStream(
  context: CommandContext,
  first: EventStream,
  query: Record<string, string>,
  signal: AbortSignal,
  vmUuid: string,
  isEnd: (operation: Json) => boolean,
): Promise<Json | undefined> {
  let stream: EventStream | undefined = first;
  let lastEventId: string | undefined;
  try {
    for (let retry = 0; ;) {
      if (stream) {
        for await (const message of stream.messages()) {
          retry = 0;
          if (message.id !== undefined) lastEventId = message.id;
          if (message.event !== 'VmChanged') continue;
          const vm = parse(message.data);
          const operation = vm?.operation as Json | null | undefined;
          if (vm?.uuid === vmUuid && operation && isEnd(operation)) return vm;
        }
      }
      if (signal.aborted) return undefined;
      context.log.write(
        `event stream of vm ${vmUuid} ended; resuming after event ${lastEventId ?? '(none)'}`,
      );
      try {
        stream = await EventStream.open(context.client, API_PATHS.events, query, {
          lastEventId,
          signal,
          log: context.log,
        });
      } catch (error) {
        if (!(error instanceof StreamUnavailable)) throw error;
        const delay = retryDelayMs('GET', error.outcome, retry++, context.client.settings.maxRetries);
        if (delay === null)
          throw new CliError(
            `lost the event stream of vm ${vmUuid} (${error.message}); the operation goes on`,
            EXIT.unavailable,
          );
        stream = undefined;
        await sleep(delay, undefined, { signal });
      }
    }
  } catch (error) {
    if (signal.aborted && (error as Error).name === 'AbortError') return undefined;
    throw error;
  }
}

function parse(data: string): Json | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    return value !== null && typeof value === 'object' ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
