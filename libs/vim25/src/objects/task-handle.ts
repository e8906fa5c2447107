import type { MoRef } from '../types/mo-ref';

/** A started vim25 Task: its reference and the `*_Task` method that started it (named in errors). */
export interface TaskHandle {
  readonly ref: MoRef;
  readonly operation: string;
}
