import { fillPath } from '@app/contracts/http/api-paths';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { parseFilters } from '../input/filters';
import { EXIT } from '../exit-codes';
import { startProgress } from '../wait/progress';
import { Waiter } from '../wait/waiter';
import type { Noun } from './nouns';

/** The largest page the API serves: a list is read in as few requests as it can. */
const PAGE_SIZE = '300';

/** Every item of a list (following `Link: rel="next"`), or one page when `--filter page=N` asks for it. */
export async function listAll(
  context: CommandContext,
  noun: Noun,
  filters: readonly string[],
): Promise<unknown[]> {
  const query = parseFilters(filters, noun.listQuery);
  const onePage = query.page !== undefined;
  let response = await context.client.get<unknown[]>(noun.listPath, { page_size: PAGE_SIZE, ...query });
  const items = [...response.body];
  for (let next = nextLink(response.headers); next && !onePage; next = nextLink(response.headers)) {
    response = await context.client.getUrl<unknown[]>(next);
    items.push(...response.body);
  }
  return noun.keep ? items.filter((item) => noun.keep!(item as Record<string, unknown>)) : items;
}

function nextLink(headers: Headers): string | undefined {
  const link = headers.get('link');
  return link ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined;
}

export async function list(context: CommandContext, noun: Noun, filters: readonly string[]): Promise<void> {
  context.print(await listAll(context, noun, filters), noun.columns);
}

export async function get(context: CommandContext, noun: Noun, uuid: string): Promise<void> {
  const { body } = await context.client.get(fillPath(noun.itemPath, { uuid }));
  context.print(body, noun.columns);
}

function isFinal(noun: Noun, object: Record<string, unknown>): boolean {
  return noun.finalStates?.includes(object.state as string) ?? false;
}

export interface WaitFlags {
  timeout: number;
  interval: number;
}

/**
 * `<noun> wait UUID --jmespath COND`: until the condition holds on the object (one GET, then its
 * SSE events), then prints it. Exit 6 on timeout.
 */
export async function waitFor(
  context: CommandContext,
  noun: Noun,
  uuid: string,
  flags: WaitFlags,
): Promise<void> {
  const condition = context.jmespath;
  if (!condition)
    throw CliError.usage(
      'wait needs a condition: --jmespath "state==\'done\'" (or a field that must be present)',
    );
  if (!noun.events) throw CliError.usage(`${noun.label} has no wait`);
  const path = fillPath(noun.itemPath, { uuid });
  // The stream may name the object by another uuid (a VM's events by its marketplace resource's).
  const scope = noun.events.scope
    ? noun.events.scope((await context.client.get<Record<string, unknown>>(path)).body)
    : uuid;
  const progress = startProgress(`${noun.label} ${uuid}`, context.interactive);
  try {
    const result = await new Waiter(context.client, context.log).wait(
      {
        label: `${noun.label} ${uuid}`,
        path,
        uuid,
        streamQuery: { [noun.events.filter]: scope, type: noun.events.type },
        eventType: noun.events.type,
      },
      {
        timeoutMs: flags.timeout * 1000,
        intervalMs: flags.interval * 1000,
        settled: (object) => condition.isMet(object) || isFinal(noun, object),
        onUpdate: (object) => progress.update(object),
      },
    );
    progress.stop();
    context.log.write(`wait made ${context.client.requests} HTTP requests`);
    if (result.kind === 'timeout') {
      const state = typeof result.object?.state === 'string' ? ` (last state: ${result.object.state})` : '';
      throw new CliError(
        `timed out after ${flags.timeout}s waiting for ${noun.label} ${uuid} to match ${condition.source}${state}`,
        EXIT.timeout,
      );
    }
    if (!condition.isMet(result.object)) {
      const reason = result.object.error_message;
      const message = typeof reason === 'string' && reason !== '' ? `: ${reason}` : '';
      throw new CliError(
        `${noun.label} ${uuid} is ${String(result.object.state)}${message} -- ${condition.source} can no longer hold`,
        EXIT.orderFailed,
        result.object,
      );
    }
    context.print(result.object, noun.columns, { reshape: false });
  } finally {
    progress.stop();
  }
}
