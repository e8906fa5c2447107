import { VmChangedEvent } from '@app/contracts';
import { DEFAULT_CONSUMER_POLICY, eventConsumerProvider, route } from '@app/messaging';
import { CONFIG } from '../../config/config.token';
import type { OrderServiceConfig } from '../../config/order-service.config';
import { VmLimitsService } from '../services/vm-limits.service';

/** VmChanged from the vSphere adapter: each VM's hardware carried to its marketplace resource's limits. */
export const vmChangesConsumer = eventConsumerProvider<[OrderServiceConfig, VmLimitsService]>({
  provide: 'VmChangesConsumer',
  inject: [CONFIG, VmLimitsService],
  build: (runtime, config, limits) => ({
    durable: runtime.topology.consumers.orderServiceVmChanges,
    policy: {
      ...DEFAULT_CONSUMER_POLICY,
      ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
      handlerTimeoutMs: config.CONSUMER_HANDLER_TIMEOUT_MS,
    },
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    routes: [route(VmChangedEvent, (envelope) => limits.onVmChanged(envelope))],
  }),
});
