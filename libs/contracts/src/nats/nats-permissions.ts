import type { Topology } from '../topology';

/**
 * Who may use which NATS subject: the one table the nats-server configuration is generated from
 * (`npm run nats:config`, committed as `deploy/nats/authorization.conf`). Each app connects with
 * credentials of its own and gets only what it needs:
 *
 * - events: only a stream's owner publishes on its subjects (the order service `<ns>.marketplace.>`,
 *   the adapter `<ns>.vsphere.>`, the scheduler `<ns>.scheduler.>`);
 * - requests: only the service a pattern's first token names subscribes to `<ns>.requests.<token>.>`,
 *   only the apps listed as its requesters publish there, and a responder may publish nothing but
 *   its one answer to the reply subject of a request it received (nats-server's `allow_responses`);
 * - replies: each app receives them on its own inbox prefix, `_INBOX.<ns>.<app>`, which no other
 *   app may subscribe to, so no one reads another app's answers (tokens, users) off the bus;
 * - JetStream: the API subjects of its own streams and durable consumers, and acks of its own
 *   durables only. The JetStream API names the stream and consumer in the subject, so this is
 *   enforceable on nats-server 2.9; the wider grants are explained where they are made below.
 *
 * The mapped types make a stream, a consumer or an app added to the topology a compile error until
 * it has an owner here; `nats-permissions.spec.ts` checks every subject and request pattern.
 */

export const NATS_APPS = ['order-service', 'vsphere-adapter', 'sync-scheduler', 'gateway'] as const;
export type NatsApp = (typeof NATS_APPS)[number];

type StreamKey = keyof Topology['streams'];
type ConsumerKey = keyof Topology['consumers'];

/** The one app that publishes each stream's events: a stream holds the events of one service. */
export const STREAM_PUBLISHERS: Readonly<Record<StreamKey, NatsApp>> = {
  marketplace: 'order-service',
  vsphere: 'vsphere-adapter',
  scheduler: 'sync-scheduler',
};

/** The app that creates each durable consumer, pulls from it and acks its messages. */
export const CONSUMER_OWNERS: Readonly<Record<ConsumerKey, NatsApp>> = {
  adapterOrderSubmitted: 'vsphere-adapter',
  orderServiceOutcomes: 'order-service',
  orderServiceVmChanges: 'order-service',
  adapterSyncRequested: 'vsphere-adapter',
  adapterOfferingChanges: 'vsphere-adapter',
};

export interface RequestRoute {
  /** The only app that subscribes to `<ns>.requests.<token>.>` and answers. */
  readonly responder: NatsApp;
  /** The apps that may send these requests. */
  readonly requesters: readonly NatsApp[];
}

/**
 * Requests by the first token of their pattern (`marketplace.users.update` → `marketplace`). The
 * gateway may send only user requests, which carry the user's token and nothing the answering
 * service would take on trust (`callerSchema`): the order service's (`marketplace`), the adapter's
 * (`vsphere`), the scheduler's, health included. Requests without a caller, which the answering
 * service carries out on the sender's word, have a first token of their own that only their one
 * sending service may use: the order service asks the adapter `vsphere-internal.…` (integrations,
 * order validation) after it checked the caller itself; the scheduler asks `sync-targets.…`.
 */
export const REQUEST_ROUTES: Readonly<Record<string, RequestRoute>> = {
  marketplace: { responder: 'order-service', requesters: ['gateway'] },
  // Who a token belongs to, with their grants: for SSE (the gateway) and every request the adapter answers.
  callers: { responder: 'order-service', requesters: ['gateway', 'vsphere-adapter'] },
  // The order service stops a VM whose end date came, with its system user's token (checked as any).
  vsphere: { responder: 'vsphere-adapter', requesters: ['gateway', 'order-service'] },
  'vsphere-internal': { responder: 'vsphere-adapter', requesters: ['order-service'] },
  scheduler: { responder: 'sync-scheduler', requesters: ['gateway'] },
  // The scheduler asks the order service which offerings to keep synchronised, and nothing else.
  'sync-targets': { responder: 'order-service', requesters: ['sync-scheduler'] },
  // The scheduler's leader asks the order service to act on end dates that are due.
  'end-dates': { responder: 'order-service', requesters: ['sync-scheduler'] },
  // The adapter has the order service count a disk or resize asked on a VM against its quotas.
  'quota-reservations': { responder: 'order-service', requesters: ['vsphere-adapter'] },
};

/**
 * The gateway reads the feed stream (`topology.feed`, sourced from the services' streams) for
 * Server-Sent Events with ordered consumers, and creates it: it is the feed's only reader.
 */
export const FEED_READER: NatsApp = 'gateway';

export interface SubjectGrant {
  readonly allow: string[];
  readonly deny: string[];
}

export interface NatsPermissions {
  readonly publish: SubjectGrant;
  readonly subscribe: SubjectGrant;
  /** May publish one answer to the reply subject of each request it received. */
  readonly allowResponses: boolean;
}

/** Where an app's replies arrive: nats.js's `inboxPrefix`, for its own requests and JetStream calls alike. */
export function natsInboxPrefix(namespace: string, app: string): string {
  return `_INBOX.${namespace}.${app}`;
}

const JS = '$JS.API';

/** Owner of a stream: find out whether it exists, create it, and bring it to its configuration. */
function streamOwnerApi(stream: string): string[] {
  return [`${JS}.STREAM.INFO.${stream}`, `${JS}.STREAM.CREATE.${stream}`, `${JS}.STREAM.UPDATE.${stream}`];
}

/**
 * Owner of a durable: create or update it (nats.js names the durable, and its filter, in the
 * subject), read its state, pull from it and ack. It may also create the stream it reads if the
 * publisher has not started yet (start order does not matter); only the publisher may update it.
 */
function durableOwnerApi(stream: string, durable: string): string[] {
  return [
    `${JS}.STREAM.INFO.${stream}`,
    `${JS}.STREAM.CREATE.${stream}`,
    `${JS}.CONSUMER.INFO.${stream}.${durable}`,
    `${JS}.CONSUMER.CREATE.${stream}.${durable}`,
    `${JS}.CONSUMER.CREATE.${stream}.${durable}.>`,
    `${JS}.CONSUMER.MSG.NEXT.${stream}.${durable}`,
    `$JS.ACK.${stream}.${durable}.>`,
  ];
}

/**
 * A reader of a stream through ordered consumers, whose names are random: consumer names cannot be
 * matched by prefix in a NATS subject, so this is every consumer of the stream, minus the durables
 * of other apps (denied by name, so a reader can neither pull their messages nor delete them).
 * Ordered consumers never ack, so no `$JS.ACK` grant.
 */
function orderedReaderApi(stream: string, durables: string[]): SubjectGrant {
  return {
    allow: [
      `${JS}.STREAM.INFO.${stream}`,
      `${JS}.CONSUMER.CREATE.${stream}.>`,
      `${JS}.CONSUMER.INFO.${stream}.*`,
      `${JS}.CONSUMER.MSG.NEXT.${stream}.*`,
      `${JS}.CONSUMER.DELETE.${stream}.*`,
    ],
    deny: durables.flatMap((durable) => [
      `${JS}.CONSUMER.CREATE.${stream}.${durable}`,
      `${JS}.CONSUMER.CREATE.${stream}.${durable}.>`,
      `${JS}.CONSUMER.MSG.NEXT.${stream}.${durable}`,
      `${JS}.CONSUMER.DELETE.${stream}.${durable}`,
    ]),
  };
}

/** Every app's permissions in the topology's namespace. */
export function natsPermissions(topology: Topology): Record<NatsApp, NatsPermissions> {
  const ns = topology.namespace;
  const requestGroup = (token: string) => topology.requests.subject(`${token}.>`);
  const routes = Object.entries(REQUEST_ROUTES);
  const streams = Object.entries(STREAM_PUBLISHERS) as [StreamKey, NatsApp][];
  const consumers = Object.entries(CONSUMER_OWNERS) as [ConsumerKey, NatsApp][];

  const permissionsOf = (app: NatsApp): NatsPermissions => {
    const ownStreams = streams.filter(([, owner]) => owner === app).map(([key]) => topology.streams[key]);
    const ownDurables = consumers
      .filter(([, owner]) => owner === app)
      .map(([key]) => topology.consumers[key]);
    const answers = routes.filter(([, route]) => route.responder === app).map(([token]) => token);
    const asks = routes.filter(([, route]) => route.requesters.includes(app)).map(([token]) => token);
    const readers = app === FEED_READER ? [topology.feed.name] : [];
    // The feed holds no durables of anyone: nothing to deny on it.
    const reading = readers.map((stream) => orderedReaderApi(stream, []));
    const jetstream = ownStreams.length + ownDurables.length + readers.length > 0;
    return {
      publish: {
        allow: unique([
          ...ownStreams.flatMap((stream) => stream.subjects),
          ...asks.map(requestGroup),
          // Account-level JetStream info (limits and usage, no stream contents): nats.js asks it first.
          ...(jetstream ? [`${JS}.INFO`] : []),
          ...ownStreams.flatMap((stream) => streamOwnerApi(stream.name)),
          ...ownDurables.flatMap((durable) => durableOwnerApi(durable.stream, durable.durable)),
          ...readers.flatMap((stream) => streamOwnerApi(stream)),
          ...reading.flatMap((grant) => grant.allow),
        ]),
        deny: unique(reading.flatMap((grant) => grant.deny)),
      },
      subscribe: {
        allow: [...answers.map(requestGroup), `${natsInboxPrefix(ns, app)}.>`],
        deny: [],
      },
      allowResponses: answers.length > 0,
    };
  };
  return Object.fromEntries(NATS_APPS.map((app) => [app, permissionsOf(app)])) as Record<
    NatsApp,
    NatsPermissions
  >;
}

function unique(subjects: string[]): string[] {
  return [...new Set(subjects)];
}
