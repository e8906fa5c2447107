import type { Caller, IntegrationView, RequestReply, ServiceAttributes } from '@app/contracts';
import { callerWith } from './callers';
import { openRequestClient } from '../../../../test/support/nats-requests';

export type RequestClient = Awaited<ReturnType<typeof openRequestClient>>;

/** Every answer the suite received, kept to scan them for the password. */
export const answers: unknown[] = [];

/** Asks and keeps the answer. */
export async function ask<T>(
  client: RequestClient,
  pattern: string,
  payload: unknown,
): Promise<RequestReply<T>> {
  const reply = await client.request<RequestReply<T>>(pattern, payload);
  answers.push(reply);
  return reply;
}

/** The data of an `ok` answer; fails the test with the answer otherwise. */
export function dataOf<T>(reply: RequestReply<T>): T {
  if (reply.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(reply)}`);
  return reply.data;
}

/** A staff user's token. */
export const staff = (userUuid = '00000000-0000-4000-8000-0000000000aa'): Caller =>
  callerWith({ staff: true, userUuid });

/** The token of an owner of the given customers (organisations): sees and acts on all their projects. */
export const ownerOf = (...customerUuids: string[]): Caller =>
  callerWith({ owned: customerUuids, userUuid: '00000000-0000-4000-8000-0000000000bb' });

/** Saves attributes; answers the view. */
export async function updateIntegration(
  client: RequestClient,
  offeringUuid: string,
  attributes: Record<string, unknown> | ServiceAttributes,
): Promise<RequestReply<IntegrationView>> {
  return ask(client, 'vsphere-internal.integration.update', {
    offering_uuid: offeringUuid,
    service_attributes: attributes,
  });
}

export async function getIntegration(client: RequestClient, offeringUuid: string): Promise<IntegrationView> {
  return dataOf(
    await ask<IntegrationView>(client, 'vsphere-internal.integration.get', { offering_uuid: offeringUuid }),
  );
}

/**
 * Waits until the offering has no synchronisation running or waiting, and one finished after
 * `finishedAfter` (the `last_sync_finished` seen before the request).
 */
export async function settled(
  client: RequestClient,
  offeringUuid: string,
  finishedAfter: string | null,
  timeoutMs = 20_000,
): Promise<IntegrationView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await getIntegration(client, offeringUuid);
    const finished = view.last_sync_finished;
    if (
      view.sync_state === 'IDLE' &&
      finished !== null &&
      (finishedAfter === null || finished > finishedAfter)
    )
      return view;
    if (Date.now() > deadline) throw new Error(`no synchronisation settled: ${JSON.stringify(view)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Saves attributes and waits for the synchronisation the save starts. */
export async function saveAndSettle(
  client: RequestClient,
  offeringUuid: string,
  attributes: Record<string, unknown>,
): Promise<IntegrationView> {
  const before = await ask<IntegrationView>(client, 'vsphere-internal.integration.get', {
    offering_uuid: offeringUuid,
  });
  const since = before.status === 'ok' ? before.data.last_sync_finished : null;
  dataOf(await updateIntegration(client, offeringUuid, attributes));
  return settled(client, offeringUuid, since);
}

/** Asks for a synchronisation and waits for it. */
export async function syncAndSettle(client: RequestClient, offeringUuid: string): Promise<IntegrationView> {
  const since = (await getIntegration(client, offeringUuid)).last_sync_finished;
  dataOf(await ask(client, 'vsphere-internal.integration.sync', { offering_uuid: offeringUuid }));
  return settled(client, offeringUuid, since);
}
