import type { QueuedOperation } from '../vm-operation-executor';

/** A whole number the request handler stored in the operation's params. */
export function numberParam(operation: QueuedOperation, name: string): number {
  const value = operation.params[name];
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new Error(`Operation ${operation.uuid} (${operation.kind}) has no whole number "${name}".`);
  return value;
}

/** A text the request handler stored in the operation's params. */
export function textParam(operation: QueuedOperation, name: string): string {
  const value = operation.params[name];
  if (typeof value !== 'string' || value === '')
    throw new Error(`Operation ${operation.uuid} (${operation.kind}) has no "${name}".`);
  return value;
}

/** The device row the operation concerns. */
export function deviceOf(operation: QueuedOperation, table: 'disk' | 'port'): string {
  const uuid = table === 'disk' ? operation.diskUuid : operation.portUuid;
  if (uuid === null) throw new Error(`Operation ${operation.uuid} (${operation.kind}) names no ${table}.`);
  return uuid;
}

export const VM_GONE = 'The virtual machine no longer exists in vCenter.';
