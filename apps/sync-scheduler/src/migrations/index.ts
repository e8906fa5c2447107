import { CreateScheduler1764480000030 } from './1764480000030-create-scheduler';

/** Every migration of the `scheduler` schema, in order. */
export const SCHEDULER_MIGRATIONS = [CreateScheduler1764480000030];
