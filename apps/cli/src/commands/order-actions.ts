import { fillPath, orderActionPath, type OrderAction } from '@app/contracts';
import type { CommandContext } from '../command-context';
import { readRequestBody, type RequestSource } from '../input/request-body';
import { ORDER } from './nouns';

/** `marketplace order approve-by-provider UUID` and the other review actions: one POST, the order printed. */
export async function orderAction(
  context: CommandContext,
  action: OrderAction,
  uuid: string,
  source: RequestSource = {},
): Promise<void> {
  const body = await readRequestBody(source);
  const { body: order } = await context.client.post(fillPath(orderActionPath(action), { uuid }), body);
  context.print(order, ORDER.columns);
}
