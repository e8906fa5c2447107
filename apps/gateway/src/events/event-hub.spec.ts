import { EventEmitter } from 'node:events';
import { Registry } from 'prom-client';
import type { CallerContext } from '@app/contracts';
import type { GatewayConfig } from '../config/gateway.config';
import type { GatewayMetrics } from '../metrics/gateway-metrics';
import type { CallerResolver } from '../rest/caller-resolver';
import type { HttpResponse } from '../rest/http-types';
import { Links } from '../rest/links';
import { EventHub } from './event-hub';
import type { FeedEvent, PublicFeedEvent } from './feed-event';
import type { FeedReader } from './feed-reader';
import { SseMetrics } from './sse-metrics';
import { SubscriberAccess } from './subscriber-access';

const USER = '33333333-3333-4333-8333-333333333333';
const PROJECT = '11111111-1111-4111-8111-111111111111';
const CUSTOMER = '22222222-2222-4222-8222-222222222222';

const context = (projects: string[]): CallerContext => ({
  user_uuid: USER,
  is_staff: false,
  owned_customer_uuids: [],
  project_grants: projects.map((project_uuid) => ({
    project_uuid,
    customer_uuid: CUSTOMER,
    roles: ['PROJECT.MEMBER'],
  })),
});

class Sink extends EventEmitter {
  readonly chunks: string[] = [];
  writableLength = 0;
  headersSent = true;
  socket = { destroy: () => undefined };
  destroyed = false;
  write(chunk: Buffer | string): boolean {
    this.chunks.push(chunk.toString());
    return true;
  }
  end(): void {}
}

const projectEvent = (seq: number): PublicFeedEvent => ({
  kind: 'public',
  seq,
  type: 'OrderStateChanged',
  terminalOrder: false,
  scope: {
    projectUuid: PROJECT,
    offeringUuid: CUSTOMER,
    customerUuid: CUSTOMER,
    providerUuid: CUSTOMER,
    public: false,
  },
  frame: () => Buffer.from(`id: ${seq}\nevent: OrderStateChanged\ndata: {}\n\n`),
});

/**
 * An AccessChanged that the hub handles while a new stream's access is still being resolved (the
 * order service answered with the grants of just before the revocation, and the AccessChanged
 * overtook that answer) must still reach the stream: otherwise it keeps the revoked project's
 * events until the periodic re-check, up to SSE_RECHECK_MS later.
 */
describe('EventHub: an AccessChanged that overtakes a new stream’s access', () => {
  it('re-resolves a stream whose access was asked before an AccessChanged of its user', async () => {
    let dispatch: (event: FeedEvent) => void = () => undefined;
    const feed = { position: 0, onEvent: (listener: (event: FeedEvent) => void) => (dispatch = listener) };
    // After the revocation the order service answers the user's context without the project.
    const callers = { fullContext: () => Promise.resolve(context([])) };
    const config = {
      SSE_HEARTBEAT_MS: 60_000,
      SSE_RECHECK_MS: 3_600_000,
      SSE_QUEUE_LIMIT_BYTES: 1_000_000,
      SSE_MAX_STREAMS_PER_USER: 8,
    } as GatewayConfig;
    const metrics = new SseMetrics({ registry: new Registry() } as GatewayMetrics);
    const hub = new EventHub(
      feed as unknown as FeedReader,
      callers as unknown as CallerResolver,
      metrics,
      config,
    );
    hub.onModuleInit();
    try {
      // The endpoint notes where the hub is, then asks the order service for the stream's access…
      const mark = hub.accessMark();
      const stale = SubscriberAccess.from(context([PROJECT]));
      // …while the role is revoked and its AccessChanged is handled before that answer arrives.
      dispatch({ kind: 'access', seq: 1, userUuids: [USER] });
      const sink = new Sink();
      const subscriber = hub.subscribe({
        response: sink as unknown as HttpResponse,
        filter: {},
        access: stale,
        authorization: 'Token x',
        links: new Links('http://gw'),
        accessMark: mark,
      });
      subscriber.goLive();
      await subscriber.settled();
      dispatch(projectEvent(2));
      expect(sink.chunks.filter((chunk) => chunk.includes('OrderStateChanged'))).toEqual([]);
    } finally {
      hub.onApplicationShutdown();
    }
  });
});
