import { randomUUID } from 'node:crypto';
import { API_PATHS, fillPath, TERMINAL_ORDER_STATES } from '@app/contracts';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { EXIT } from '../exit-codes';
import { readRequestBody, withAmbientProject, type RequestSource } from '../input/request-body';
import { renderSkeleton, type SkeletonFormat } from '../input/skeletons';
import { startProgress } from '../wait/progress';
import { Waiter } from '../wait/waiter';
import { ORDER, RESOURCE } from './nouns';

export interface OrderFlowFlags extends RequestSource {
  generateSkeleton?: string;
  dryRun?: boolean;
  /** False with `--no-wait`. */
  wait: boolean;
  timeout: number;
  interval: number;
}

type Json = Record<string, unknown>;

export function skeletonFormat(value: string | true): SkeletonFormat {
  const format = value === true ? 'json' : value;
  if (format !== 'json' && format !== 'yaml')
    throw CliError.usage(`--generate-skeleton ${format}: json or yaml`);
  return format;
}

function exclusiveSources(flags: OrderFlowFlags): void {
  const given = [flags.request, flags.requestFile, flags.generateSkeleton].filter((v) => v !== undefined);
  if (given.length > 1)
    throw CliError.usage('--request, --request-file and --generate-skeleton are mutually exclusive');
}

/**
 * `provision`: the order body (with the ambient project unless it names one) → `POST
 * /api/marketplace-orders/` with an Idempotency-Key of its own, retried under that key when no
 * answer comes (the API answers the first order, never a second) → wait for a terminal state → the
 * resource. `--dry-run`
 * asks the server's dry run and prints the order it would create; nothing is created.
 */
export async function provision(
  context: CommandContext,
  flags: OrderFlowFlags,
  skeleton: () => Json,
): Promise<void> {
  exclusiveSources(flags);
  if (flags.generateSkeleton !== undefined) {
    process.stdout.write(renderSkeleton(skeleton(), skeletonFormat(flags.generateSkeleton)));
    return;
  }
  const body = withAmbientProject(
    await readRequestBody(flags),
    context.settings.project,
    context.settings.apiUrl,
  );
  if (flags.dryRun) {
    const { body: draft } = await context.client.post(API_PATHS.orders, body, { dry_run: 'true' });
    context.print(draft);
    return;
  }
  const { body: order } = await context.client.post<Json>(API_PATHS.orders, body, undefined, randomUUID());
  await followOrder(context, flags, order, async () => {
    const resource = await context.client.get(
      fillPath(API_PATHS.orderResource, { uuid: String(order.uuid) }),
    );
    return resource.body;
  });
}

/**
 * `terminate UUID`: `POST /api/marketplace-resources/{uuid}/terminate/` with `{"attributes": …}`
 * (the request's options; a body that is already `{"attributes": …}` goes as it is), then waits
 * for its order and prints the resource; unanswered, it is sent again under its Idempotency-Key.
 * `--dry-run` prints the request and sends nothing (the API
 * has no dry run for it).
 */
export async function terminate(context: CommandContext, uuid: string, flags: OrderFlowFlags): Promise<void> {
  if (flags.generateSkeleton !== undefined)
    throw CliError.usage('terminate has no skeleton: its --request holds termination options');
  exclusiveSources(flags);
  const options = await readRequestBody(flags);
  const keys = Object.keys(options);
  const body = keys.length === 1 && keys[0] === 'attributes' ? options : { attributes: options };
  const path = fillPath(API_PATHS.resourceTerminate, { uuid });
  if (flags.dryRun) {
    context.print({ method: 'POST', url: context.client.url(path), body });
    return;
  }
  const { body: created } = await context.client.post<Json>(path, body, undefined, randomUUID());
  const orderUuid = String(created.order_uuid);
  const order = flags.wait
    ? {}
    : (await context.client.get<Json>(fillPath(API_PATHS.order, { uuid: orderUuid }))).body;
  await followOrder(context, flags, { uuid: orderUuid, ...order }, async () => {
    return (await context.client.get(fillPath(API_PATHS.resource, { uuid }))).body;
  });
}

/** `--no-wait` prints the order; otherwise waits for its terminal state and prints `result()`. */
async function followOrder(
  context: CommandContext,
  flags: OrderFlowFlags,
  order: Json,
  result: () => Promise<unknown>,
): Promise<void> {
  if (!flags.wait) {
    context.print(order, ORDER.columns);
    return;
  }
  const uuid = String(order.uuid);
  const terminal: readonly unknown[] = TERMINAL_ORDER_STATES;
  const progress = startProgress(`order ${uuid}`, context.interactive);
  let outcome;
  try {
    outcome = await new Waiter(context.client, context.log).wait(
      {
        label: `order ${uuid}`,
        path: fillPath(API_PATHS.order, { uuid }),
        uuid,
        streamQuery: { order_uuid: uuid, type: 'OrderStateChanged' },
        eventType: 'OrderStateChanged',
      },
      {
        timeoutMs: flags.timeout * 1000,
        intervalMs: flags.interval * 1000,
        settled: (object) => terminal.includes(object.state),
        onUpdate: (object) => progress.update(object),
      },
    );
  } catch (error) {
    // The order stands: say how to follow it rather than leave its uuid unknown.
    if (error instanceof CliError)
      throw new CliError(
        `${error.message} (marketplace order ${uuid} was placed: waldur-cli marketplace order wait ${uuid} --jmespath "state=='done'")`,
        error.exitCode,
        error.details,
      );
    throw error;
  } finally {
    progress.stop();
  }
  context.log.write(`the order and its wait made ${context.client.requests} HTTP requests`);
  if (outcome.kind === 'timeout') {
    const state = typeof outcome.object?.state === 'string' ? outcome.object.state : 'unknown';
    throw new CliError(
      `timed out after ${flags.timeout}s waiting for marketplace order ${uuid} (last state: ${state}) -- it may still complete; nothing was canceled`,
      EXIT.timeout,
    );
  }
  const state = String(outcome.object.state);
  if (state !== 'done') {
    throw new CliError(
      `marketplace order ${uuid} ${state}: ${typeof outcome.object.error_message === 'string' ? outcome.object.error_message : ''}`,
      EXIT.orderFailed,
      outcome.object,
    );
  }
  context.print(await result(), RESOURCE.columns);
}
