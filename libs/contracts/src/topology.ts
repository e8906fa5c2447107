/**
 * Stream, subject and durable-consumer names, derived from one namespace so that parallel test
 * suites (and separate deployments on one NATS) never see each other's events.
 *
 * One stream per publishing service: the order service writes `<ns>.marketplace.>` and the vSphere
 * adapter writes `<ns>.vsphere.>`. nats-server 2.9 allows one filter subject per consumer, so each
 * consumer's events share a subject prefix.
 */
export interface Topology {
  readonly namespace: string;
  readonly streams: {
    readonly marketplace: { readonly name: string; readonly subjects: string[] };
    readonly vsphere: { readonly name: string; readonly subjects: string[] };
    /** Owned by the sync-scheduler, which publishes to it directly (it has no outbox). */
    readonly scheduler: { readonly name: string; readonly subjects: string[] };
  };
  readonly subjects: {
    /** Per offering type: `<ns>.marketplace.order.submitted.<type token>`. */
    orderSubmitted(offeringType: string): string;
    readonly orderDone: string;
    readonly orderErred: string;
    /** SyncRequested, published by the sync-scheduler. */
    readonly syncRequested: string;
    /** SyncStarted, SyncFinished, IntegrationStateChanged: published by the vSphere adapter. */
    readonly syncStarted: string;
    readonly syncFinished: string;
    readonly integrationStateChanged: string;
  };
  readonly consumers: {
    readonly adapterOrderSubmitted: {
      readonly stream: string;
      readonly durable: string;
      readonly filter: string;
    };
    readonly orderServiceOutcomes: {
      readonly stream: string;
      readonly durable: string;
      readonly filter: string;
    };
    readonly adapterSyncRequested: {
      readonly stream: string;
      readonly durable: string;
      readonly filter: string;
    };
  };
}

export const DEFAULT_NAMESPACE = 'vmm';
export const VMWARE_OFFERING_TYPE = 'VMware.VirtualMachine';

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
  const syncRequested = `${namespace}.scheduler.sync.requested`;
  const orderSubmitted = (offeringType: string) =>
    `${namespace}.marketplace.order.submitted.${offeringTypeToken(offeringType)}`;
  return {
    namespace,
    streams: { marketplace, vsphere, scheduler },
    subjects: {
      orderSubmitted,
      orderDone: `${namespace}.vsphere.order.done`,
      orderErred: `${namespace}.vsphere.order.erred`,
      syncRequested,
      syncStarted: `${namespace}.vsphere.integration.sync.started`,
      syncFinished: `${namespace}.vsphere.integration.sync.finished`,
      integrationStateChanged: `${namespace}.vsphere.integration.state.changed`,
    },
    consumers: {
      adapterOrderSubmitted: {
        stream: marketplace.name,
        durable: 'vsphere-adapter-order-submitted',
        filter: orderSubmitted(VMWARE_OFFERING_TYPE),
      },
      orderServiceOutcomes: {
        stream: vsphere.name,
        durable: 'order-service-order-outcomes',
        filter: `${namespace}.vsphere.order.>`,
      },
      adapterSyncRequested: {
        stream: scheduler.name,
        durable: 'vsphere-adapter-sync-requested',
        filter: syncRequested,
      },
    },
  };
}
