import { CreateMessaging1764480000001 } from './1764480000001-create-messaging';

/** Every migration of the `vsphere` schema, in order. */
export const VSPHERE_MIGRATIONS = [CreateMessaging1764480000001];
