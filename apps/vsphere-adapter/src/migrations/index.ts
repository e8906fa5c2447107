import { CreateMessaging1764480000001 } from './1764480000001-create-messaging';
import { OutboxOrdering1764480000010 } from './1764480000010-outbox-ordering';
import { CreateIntegrations1764480000021 } from './1764480000021-create-integrations';
import { CreateVirtualMachines1764480000030 } from './1764480000030-create-virtual-machines';
import { VmProject1764480000040 } from './1764480000040-vm-project';
import { VmOperations1764480000050 } from './1764480000050-vm-operations';
import { IntegrationCustomer1764480000056 } from './1764480000056-integration-customer';
import { OfferingStates1764480000060 } from './1764480000060-offering-states';
import { IntegrationEndpointBinding1764480000065 } from './1764480000065-integration-endpoint-binding';
import { VmWatchStates1764480000110 } from './1764480000110-vm-watch-states';
import { VmSnapshots1764480000130 } from './1764480000130-vm-snapshots';
import { IdempotencyKeys1764480000300 } from './1764480000300-idempotency-keys';

/** Every migration of the `vsphere` schema, in order. */
export const VSPHERE_MIGRATIONS = [
  CreateMessaging1764480000001,
  OutboxOrdering1764480000010,
  CreateIntegrations1764480000021,
  CreateVirtualMachines1764480000030,
  VmProject1764480000040,
  VmOperations1764480000050,
  IntegrationCustomer1764480000056,
  OfferingStates1764480000060,
  IntegrationEndpointBinding1764480000065,
  VmWatchStates1764480000110,
  VmSnapshots1764480000130,
  IdempotencyKeys1764480000300,
];
