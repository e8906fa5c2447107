/**
 * Stream, subject and durable-consumer names, derived from one namespace so that parallel test
 * suites (and separate deployments on one NATS) never see each other's events.
 *
 * One stream per publishing service: the order service writes `<ns>.marketplace.>`, the vSphere
 * adapter `<ns>.vsphere.>` and the sync scheduler `<ns>.scheduler.>`. nats-server 2.9 allows one
 * filter subject per consumer, so each consumer's events share a subject prefix.
 *
 * Who may publish, consume or request what is decided in `nats/nats-permissions.ts`: a stream,
 * subject or consumer added here does not compile, or fails its unit test, until it has an owner there.
 */
import { VMWARE_VM_TYPE } from './marketplace/offering-types';

export interface Topology {
  readonly namespace: string;
  readonly streams: {
    readonly marketplace: StreamNames;
    readonly vsphere: StreamNames;
    /** SyncRequested: owned by the sync scheduler, which publishes to it directly (it has no outbox). */
    readonly scheduler: StreamNames;
  };
  /**
   * The one stream the gateway reads for SSE: every public state change of every service, sourced
   * from the services' streams (each service publishes its feed events under `<ns>.<stream>.feed.>`),
   * so one sequence orders what a client sees and is its `Last-Event-ID`. Created by the gateway.
   */
  readonly feed: FeedStreamNames;
  readonly subjects: {
    /** Per offering type: `<ns>.marketplace.order.submitted.<type token>`. */
    orderSubmitted(offeringType: string): string;
    readonly orderDone: string;
    readonly orderErred: string;
    /** An offering created, changed or moved to another state (for SSE). */
    readonly offeringChanged: string;
    /** OrderStateChanged, ResourceStateChanged, AccessChanged: published by the order service (for SSE). */
    readonly orderStateChanged: string;
    readonly resourceStateChanged: string;
    readonly accessChanged: string;
    /** Per offering type: `<ns>.scheduler.sync.requested.<type token>`; published by the sync scheduler. */
    syncRequested(offeringType: string): string;
    /**
     * SyncStarted, SyncFinished, IntegrationStateChanged (`.vsphere.feed.sync.*`, `.vsphere.feed.integration`)
     * and VmChanged (`.vsphere.feed.vm`): published by the vSphere adapter under `feed` so that SSE carries them.
     */
    readonly syncStarted: string;
    readonly syncFinished: string;
    readonly integrationStateChanged: string;
    readonly vmChanged: string;
  };
  readonly consumers: {
    readonly adapterOrderSubmitted: DurableNames;
    readonly orderServiceOutcomes: DurableNames;
    /** The order service's VmChanged consumer: a VM's hardware carried to its resource's limits. */
    readonly orderServiceVmChanges: DurableNames;
    /** The adapter's SyncRequested consumer (`vsphere-adapter-sync-requested`). */
    readonly adapterSyncRequested: DurableNames;
    /** The adapter's OfferingChanged consumer: each offering's state and provider, for inventory visibility. */
    readonly adapterOfferingChanges: DurableNames;
  };
  readonly requests: {
    /**
     * The core NATS subject a request pattern travels on: `<ns>.requests.<pattern>`. The first token
     * of a pattern names the service that answers it (`marketplace.users.update`: the order service).
     */
    subject(pattern: string): string;
  };
}

export interface StreamNames {
  readonly name: string;
  readonly subjects: string[];
}

export interface FeedStreamNames {
  readonly name: string;
  /** Where its events come from: each service stream's `feed` subjects. */
  readonly sources: readonly { readonly stream: string; readonly filter: string }[];
}

export interface DurableNames {
  readonly stream: string;
  readonly durable: string;
  readonly filter: string;
}

export const DEFAULT_NAMESPACE = 'vmm';

const NAMESPACE_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** A subject token may not hold dots or wildcards: `VMware.VirtualMachine` becomes `vmware-virtualmachine`. */
export function offeringTypeToken(offeringType: string): string {
  return offeringType.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

export function topology(namespace: string = DEFAULT_NAMESPACE): Topology {
  if (!NAMESPACE_PATTERN.test(namespace)) {
    throw new Error(`NATS namespace "${namespace}" must match ${NAMESPACE_PATTERN.source}`);
  }
  const streamPrefix = namespace.toUpperCase().replace(/-/g, '_');
  const marketplace = { name: `${streamPrefix}_MARKETPLACE`, subjects: [`${namespace}.marketplace.>`] };
  const vsphere = { name: `${streamPrefix}_VSPHERE`, subjects: [`${namespace}.vsphere.>`] };
  const scheduler = { name: `${streamPrefix}_SCHEDULER`, subjects: [`${namespace}.scheduler.>`] };
  const orderSubmitted = (offeringType: string) =>
    `${namespace}.marketplace.order.submitted.${offeringTypeToken(offeringType)}`;
  const syncRequested = (offeringType: string) =>
    `${namespace}.scheduler.sync.requested.${offeringTypeToken(offeringType)}`;
  const feed = {
    name: `${streamPrefix}_FEED`,
    sources: [
      { stream: marketplace.name, filter: `${namespace}.marketplace.feed.>` },
      { stream: vsphere.name, filter: `${namespace}.vsphere.feed.>` },
    ],
  };
  return {
    namespace,
    streams: { marketplace, vsphere, scheduler },
    feed,
    subjects: {
      orderSubmitted,
      orderDone: `${namespace}.vsphere.order.done`,
      orderErred: `${namespace}.vsphere.order.erred`,
      offeringChanged: `${namespace}.marketplace.feed.offering`,
      orderStateChanged: `${namespace}.marketplace.feed.order`,
      resourceStateChanged: `${namespace}.marketplace.feed.resource`,
      accessChanged: `${namespace}.marketplace.feed.access`,
      syncRequested,
      syncStarted: `${namespace}.vsphere.feed.sync.started`,
      syncFinished: `${namespace}.vsphere.feed.sync.finished`,
      integrationStateChanged: `${namespace}.vsphere.feed.integration`,
      vmChanged: `${namespace}.vsphere.feed.vm`,
    },
    consumers: {
      adapterOrderSubmitted: {
        stream: marketplace.name,
        durable: 'vsphere-adapter-order-submitted',
        filter: orderSubmitted(VMWARE_VM_TYPE),
      },
      orderServiceOutcomes: {
        stream: vsphere.name,
        durable: 'order-service-order-outcomes',
        filter: `${namespace}.vsphere.order.>`,
      },
      orderServiceVmChanges: {
        stream: vsphere.name,
        durable: 'order-service-vm-changes',
        filter: `${namespace}.vsphere.feed.vm`,
      },
      adapterSyncRequested: {
        stream: scheduler.name,
        durable: 'vsphere-adapter-sync-requested',
        filter: syncRequested(VMWARE_VM_TYPE),
      },
      adapterOfferingChanges: {
        stream: marketplace.name,
        durable: 'vsphere-adapter-offering-changes',
        filter: `${namespace}.marketplace.feed.offering`,
      },
    },
    requests: { subject: (pattern: string) => `${namespace}.requests.${pattern}` },
  };
}
