import type { XmlValue } from '../xml/decoder';
import type { MoRef } from './mo-ref';

/** vim25 TaskInfoState. */
export type TaskInfoState = 'queued' | 'running' | 'success' | 'error';

/** vim25 TaskInfo (the parts a waiter needs). */
export interface TaskInfo {
  readonly task: MoRef;
  readonly state: TaskInfoState;
  /** LocalizedMethodFault when state is `error`. */
  readonly error?: XmlValue;
  /** The task's result (e.g. the new VM's MoRef for CloneVM_Task). */
  readonly result?: XmlValue;
}
