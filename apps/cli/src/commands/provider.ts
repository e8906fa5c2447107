import { randomUUID } from 'node:crypto';
import { API_PATHS, fillPath, providerOfferingActionPath, type ProviderOfferingAction } from '@app/contracts';
import type { CommandContext } from '../command-context';
import { readRequestBody, type RequestSource } from '../input/request-body';
import { PROVIDER_OFFERING } from './nouns';

/**
 * `marketplace provider-offering create --request '{name, type, customer}'`: a Draft offering, sent
 * with an Idempotency-Key of its own (retried under it when unanswered: one offering, never two).
 */
export async function createOffering(context: CommandContext, source: RequestSource): Promise<void> {
  const request = await readRequestBody(source);
  const { body } = await context.client.post(API_PATHS.providerOfferings, request, undefined, randomUUID());
  context.print(body, PROVIDER_OFFERING.columns);
}

/**
 * `activate`, `pause`, `archive`, `sync`, `update-integration --request '{"service_attributes": …}'`
 * (one POST each), and `integration` (a GET): the answer printed.
 */
export async function offeringAction(
  context: CommandContext,
  action: ProviderOfferingAction,
  uuid: string,
  source: RequestSource,
): Promise<void> {
  const path = fillPath(providerOfferingActionPath(action), { uuid });
  const { body } =
    action === 'integration'
      ? await context.client.get(path)
      : await context.client.post(path, await readRequestBody(source));
  context.print(body, action === 'integration' ? undefined : PROVIDER_OFFERING.columns);
}
