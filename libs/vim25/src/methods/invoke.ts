import type { SoapObject } from '../soap/soap-encoder';
import { buildEnvelope } from '../soap/soap-envelope';
import type { SoapCallOptions, SoapCaller } from '../soap/soap-transport';
import { VimTransportError } from '../soap/vim-errors';
import type { XmlValue } from '../xml/decoder';
import { readResponse } from '../xml/envelope-reader';
import { asMoRef } from '../xml/values';
import type { MoRef } from '../types/mo-ref';

/** Per-call options of every method: an AbortSignal and a timeout (ms). */
export type CallOptions = Pick<SoapCallOptions, 'signal' | 'timeoutMs'>;

/**
 * Calls vim25 method `method` on `self` with `args` (in WSDL order) and returns the decoded
 * `returnval`. Faults throw VimFault, transport failures VimTransportError. One round trip.
 */
export async function invoke(
  caller: SoapCaller,
  method: string,
  self: MoRef,
  args: SoapObject = {},
  options: CallOptions = {},
): Promise<XmlValue | undefined> {
  const reply = await caller.call(method, buildEnvelope(method, self, args), options);
  return readResponse(method, reply);
}

/** Like `invoke` for methods that return a MoRef (e.g. a Task); a missing one is a protocol error. */
export async function invokeForMoRef(
  caller: SoapCaller,
  method: string,
  self: MoRef,
  args: SoapObject = {},
  options: CallOptions = {},
): Promise<MoRef> {
  const value = asMoRef(await invoke(caller, method, self, args, options));
  if (value === undefined) {
    throw new VimTransportError(method, 'protocol', `${method} answered without a managed object reference`);
  }
  return value;
}
