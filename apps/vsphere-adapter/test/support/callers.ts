import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  CALLER_CONTEXT,
  QUOTA_RELEASE_PATTERN,
  QUOTA_RESERVE_PATTERN,
  topology,
  type QuotaReservationView,
  type Caller,
  type ProjectRole,
  type RequestReply,
  type VsphereCaller,
} from '@app/contracts';
import { testEnv } from '../../../../test/support/test-env';

/**
 * The tokens this test process hands the adapter and who each stands for. The adapter resolves a
 * request's token with the order service (`callers.context`); an adapter suite runs no order
 * service, so `answerCallers` takes its place on NATS and answers from here. The adapter's side
 * (its request, its checks of the answer, its decisions) runs as in production.
 */
const directory = new Map<string, VsphereCaller>();

/** A token that resolves to `context`. */
export function tokenFor(context: VsphereCaller): Caller {
  const token = `test-${randomUUID()}`;
  directory.set(token, context);
  return { token };
}

/** A user of the given grants. */
export function callerWith(grants: {
  staff?: boolean;
  owned?: string[];
  projects?: [project: string, customer: string, role: ProjectRole][];
  userUuid?: string;
}): Caller {
  return tokenFor({
    user_uuid: grants.userUuid ?? randomUUID(),
    is_staff: grants.staff ?? false,
    owned_customer_uuids: grants.owned ?? [],
    project_grants: (grants.projects ?? []).map(([project_uuid, customer_uuid, role]) => ({
      project_uuid,
      customer_uuid,
      roles: [role],
    })),
  });
}

/**
 * Answers `callers.context` in `namespace` as the order service does (Nest's reply packet): the
 * context of a known token, 401 for any other; and `quota-reservations.*` as for a project without quotas. One queue group, however many adapters a suite runs.
 */
export async function answerCallers(namespace: string): Promise<{ close(): Promise<void> }> {
  const nc: NatsConnection = await connect({ servers: [testEnv.natsUrl] });
  nc.subscribe(topology(namespace).requests.subject(CALLER_CONTEXT.pattern), {
    queue: 'test-callers',
    callback: (_error, message) => {
      const { id, data } = message.json<{ id: string; data: { caller?: { token?: string } } }>();
      const context = directory.get(data.caller?.token ?? '');
      const response: RequestReply<VsphereCaller> = context
        ? { status: 'ok', data: context }
        : { status: 'error', code: 401, detail: 'Invalid token.' };
      message.respond(JSON.stringify({ id, response, isDisposed: true }));
    },
  });
  // Quota reservations, as the order service answers them for a project without quotas (the
  // quota checks themselves are proven end to end, with the order service: test/e2e/vm-quotas).
  const reserved: QuotaReservationView = { refused: null };
  for (const pattern of [QUOTA_RESERVE_PATTERN, QUOTA_RELEASE_PATTERN])
    nc.subscribe(topology(namespace).requests.subject(pattern), {
      queue: 'test-callers',
      callback: (_error, message) => {
        const { id } = message.json<{ id: string }>();
        const data = pattern === QUOTA_RESERVE_PATTERN ? reserved : null;
        message.respond(JSON.stringify({ id, response: { status: 'ok', data }, isDisposed: true }));
      },
    });
  await nc.flush();
  return { close: () => nc.close() };
}
