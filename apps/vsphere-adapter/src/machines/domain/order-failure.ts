import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { CredentialCipherError } from '../../integration/domain/credential-cipher';
import { IncompleteCredentialsError } from '../../integration/domain/vcenter-connection';

/** A refusal of ours that ends the order (not vCenter's): the message goes on the order as is. */
export class OrderRefused extends Error {
  override readonly name = 'OrderRefused';
}

// An HTTP status without a SOAP answer that says "not now" (vCenter restarting, a proxy before it).
const UNAVAILABLE_HTTP = new Set([502, 503, 504]);
// vCenter's own "not now": another task holds the VM (vCenter's work after a clone, an
// administrator's, DRS). It says nothing about the order, which comes again and finds its VM.
const BUSY_FAULTS = new Set(['TaskInProgress']);

/**
 * Whether a failure of an order's work ends the order as erred: vCenter refused it (a SOAP fault,
 * a REST error), answered in a way only an operator can mend (an untrusted certificate, something
 * that is not a vCenter), or we refused it (OrderRefused, credentials that cannot be used).
 * Everything else says nothing about the order and leaves it to come again: vCenter unreachable,
 * slow or busy with another task on the VM, and every failure of our own parts — Postgres away or starting up, NATS, a bug — which
 * must never reach the customer as vCenter's answer. Pure.
 */
export function endsTheOrder(error: unknown): boolean {
  if (error instanceof OrderRefused) return true;
  if (error instanceof IncompleteCredentialsError || error instanceof CredentialCipherError) return true;
  if (error instanceof VimFault) return !BUSY_FAULTS.has(error.faultType);
  if (error instanceof VapiError) return true;
  if (error instanceof VimTransportError)
    return (
      error.kind === 'tls' ||
      error.kind === 'protocol' ||
      (error.kind === 'http' && !UNAVAILABLE_HTTP.has(error.status ?? 0))
    );
  return false;
}
