import type { SoapCaller } from '../soap/soap-transport';
import type { MoRef } from '../types/mo-ref';
import type { PropertyFilterSpec, RetrieveResult, UpdateSet } from '../types/property';
import { invoke, invokeForMoRef, type CallOptions } from './invoke';
import { encodeFilterSpec, toRetrieveResult, toUpdateSet } from './property-results';

/**
 * PropertyCollector.RetrievePropertiesEx: first page of the properties matched by `specs`
 * (`maxObjects` per page; vCenter may page below it). One round trip.
 */
export async function retrievePropertiesEx(
  caller: SoapCaller,
  collector: MoRef,
  specs: readonly PropertyFilterSpec[],
  maxObjects?: number,
  options?: CallOptions,
): Promise<RetrieveResult> {
  const value = await invoke(
    caller,
    'RetrievePropertiesEx',
    collector,
    { specSet: specs.map(encodeFilterSpec), options: { maxObjects } },
    options,
  );
  return toRetrieveResult(value);
}

/** PropertyCollector.ContinueRetrievePropertiesEx: the next page for `token`. One round trip. */
export async function continueRetrievePropertiesEx(
  caller: SoapCaller,
  collector: MoRef,
  token: string,
  options?: CallOptions,
): Promise<RetrieveResult> {
  return toRetrieveResult(
    await invoke(caller, 'ContinueRetrievePropertiesEx', collector, { token }, options),
  );
}

/** PropertyCollector.CancelRetrievePropertiesEx: drops the rest of a paged result. One round trip. */
export async function cancelRetrievePropertiesEx(
  caller: SoapCaller,
  collector: MoRef,
  token: string,
  options?: CallOptions,
): Promise<void> {
  await invoke(caller, 'CancelRetrievePropertiesEx', collector, { token }, options);
}

/** PropertyCollector.CreatePropertyCollector: a private, session-scoped collector (own filters and versions). One round trip. */
export async function createPropertyCollector(
  caller: SoapCaller,
  collector: MoRef,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(caller, 'CreatePropertyCollector', collector, {}, options);
}

/** PropertyCollector.DestroyPropertyCollector: destroys a private collector and its filters. One round trip. */
export async function destroyPropertyCollector(
  caller: SoapCaller,
  collector: MoRef,
  options?: CallOptions,
): Promise<void> {
  await invoke(caller, 'DestroyPropertyCollector', collector, {}, options);
}

/** PropertyCollector.CreateFilter: watch `spec` for WaitForUpdatesEx. One round trip. */
export async function createFilter(
  caller: SoapCaller,
  collector: MoRef,
  spec: PropertyFilterSpec,
  partialUpdates = false,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(
    caller,
    'CreateFilter',
    collector,
    { spec: encodeFilterSpec(spec), partialUpdates },
    options,
  );
}

/** PropertyFilter.DestroyPropertyFilter: stops a filter. One round trip. */
export async function destroyPropertyFilter(
  caller: SoapCaller,
  filter: MoRef,
  options?: CallOptions,
): Promise<void> {
  await invoke(caller, 'DestroyPropertyFilter', filter, {}, options);
}

/**
 * PropertyCollector.WaitForUpdatesEx: long-polls for changes after `version` ('' = initial
 * state), up to `maxWaitSeconds` (undefined = until a change), at most `maxObjectUpdates` object
 * updates per answer (more pending: `truncated`, ask again with the answer's version). Returns
 * undefined on timeout with no change. One round trip, held open by vCenter; give
 * `options.timeoutMs` above the wait.
 */
export async function waitForUpdatesEx(
  caller: SoapCaller,
  collector: MoRef,
  version: string,
  maxWaitSeconds: number | undefined,
  options?: CallOptions,
  maxObjectUpdates?: number,
): Promise<UpdateSet | undefined> {
  const value = await invoke(
    caller,
    'WaitForUpdatesEx',
    collector,
    { version, options: { maxWaitSeconds, maxObjectUpdates } },
    options,
  );
  return toUpdateSet(value);
}
