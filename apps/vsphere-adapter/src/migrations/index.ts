import { CreateMessaging1764480000001 } from './1764480000001-create-messaging';
import { OutboxOrdering1764480000010 } from './1764480000010-outbox-ordering';

/** Every migration of the `vsphere` schema, in order. */
export const VSPHERE_MIGRATIONS = [CreateMessaging1764480000001, OutboxOrdering1764480000010];
