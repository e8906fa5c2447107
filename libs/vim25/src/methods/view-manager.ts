import type { SoapCaller } from '../soap/soap-transport';
import type { MoRef } from '../types/mo-ref';
import { invoke, invokeForMoRef, type CallOptions } from './invoke';

/**
 * ViewManager.CreateContainerView: a session-scoped view of the objects of `types` under
 * `container` (recursive by default). Destroy it with `destroyView`. One round trip.
 */
export async function createContainerView(
  caller: SoapCaller,
  viewManager: MoRef,
  container: MoRef,
  types: readonly string[],
  recursive = true,
  options?: CallOptions,
): Promise<MoRef> {
  return invokeForMoRef(
    caller,
    'CreateContainerView',
    viewManager,
    { container, type: types, recursive },
    options,
  );
}

/** View.DestroyView: releases a view. One round trip. */
export async function destroyView(caller: SoapCaller, view: MoRef, options?: CallOptions): Promise<void> {
  await invoke(caller, 'DestroyView', view, {}, options);
}
