import { OfferingChangedEvent } from '@app/contracts';
import { DEFAULT_CONSUMER_POLICY, eventConsumerProvider, route } from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { OfferingStateService } from '../services/offering-state.service';

/** OfferingChanged from the marketplace stream: each offering's state, for who sees its inventory. */
export const offeringChangedConsumer = eventConsumerProvider<[VsphereAdapterConfig, OfferingStateService]>({
  provide: 'OfferingChangedConsumer',
  inject: [CONFIG, OfferingStateService],
  build: (runtime, config, states) => ({
    durable: runtime.topology.consumers.adapterOfferingChanges,
    policy: {
      ...DEFAULT_CONSUMER_POLICY,
      ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
      handlerTimeoutMs: config.CONSUMER_HANDLER_TIMEOUT_MS,
    },
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    routes: [route(OfferingChangedEvent, (envelope) => states.onOfferingChanged(envelope))],
  }),
});
