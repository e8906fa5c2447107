import { SyncRequestedEvent } from '@app/contracts';
import { DEFAULT_CONSUMER_POLICY, eventConsumerProvider, route } from '@app/messaging';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { SyncRequestService } from '../services/sync-request.service';

/** SyncRequested from the scheduler's stream: recording a request is quick, the run happens after the ack. */
export const syncRequestedConsumer = eventConsumerProvider<[VsphereAdapterConfig, SyncRequestService]>({
  provide: 'SyncRequestedConsumer',
  inject: [CONFIG, SyncRequestService],
  build: (runtime, config, requests) => ({
    durable: runtime.topology.consumers.adapterSyncRequested,
    policy: {
      ...DEFAULT_CONSUMER_POLICY,
      ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
      handlerTimeoutMs: config.CONSUMER_HANDLER_TIMEOUT_MS,
    },
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    routes: [route(SyncRequestedEvent, (envelope) => requests.onSyncRequested(envelope))],
  }),
});
