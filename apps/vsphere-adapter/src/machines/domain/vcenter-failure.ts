import { VimTransportError } from '@app/vim25';

/**
 * Whether a failure says nothing about the order itself (vCenter unreachable, an answer that did
 * not come in time, a call aborted), so the order is tried again rather than ended as erred. A TLS
 * or protocol failure is a configuration problem and ends the order with its message. Pure.
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof VimTransportError)) return false;
  return error.kind === 'network' || error.kind === 'timeout' || error.kind === 'aborted';
}
