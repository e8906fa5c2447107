import type { SoapCaller } from '../soap/soap-transport';
import { VimFault } from '../soap/vim-errors';
import { createContainerView, destroyView } from '../methods/view-manager';
import type { MoRef } from '../types/mo-ref';
import type { ObjectContent, PropertySpec } from '../types/property';
import type { ServiceContent } from '../types/service-content';
import { retrieveAll, type RetrieveOptions } from './retrieve';

/** What to read through a container view. */
export interface ViewQuery {
  /** Managed object types the view holds (subtypes included), e.g. `['Network']`. */
  readonly types: readonly string[];
  /** Explicit property paths per concrete type. */
  readonly propSet: readonly PropertySpec[];
  /** Where to look; default the root folder. */
  readonly container?: MoRef;
  readonly recursive?: boolean;
}

async function readOnce(
  caller: SoapCaller,
  content: Pick<ServiceContent, 'viewManager' | 'propertyCollector' | 'rootFolder'>,
  query: ViewQuery,
  options: RetrieveOptions,
): Promise<ObjectContent[]> {
  const call = { signal: options.signal, timeoutMs: options.timeoutMs };
  const view = await createContainerView(
    caller,
    content.viewManager,
    query.container ?? content.rootFolder,
    query.types,
    query.recursive ?? true,
    call,
  );
  try {
    return await retrieveAll(
      caller,
      content.propertyCollector,
      [
        {
          propSet: query.propSet,
          objectSet: [
            {
              obj: view,
              skip: true,
              selectSet: [{ name: 'traverseView', type: 'ContainerView', path: 'view', skip: false }],
            },
          ],
        },
      ],
      options,
    );
  } finally {
    // Best effort: a view dies with its session anyway; never mask the retrieval's own error.
    await destroyView(caller, view, { timeoutMs: call.timeoutMs }).catch(() => undefined);
  }
}

/**
 * Reads `query.propSet` of every object of `query.types` under a container through a
 * ViewManager container view: CreateContainerView + RetrievePropertiesEx (+ one
 * ContinueRetrievePropertiesEx per extra page) + DestroyView, i.e. one property-collector round
 * trip per type for up to `pageSize` objects. A view lost to a re-login in between
 * (ManagedObjectNotFound) is recreated once.
 */
export async function retrieveFromView(
  caller: SoapCaller,
  content: Pick<ServiceContent, 'viewManager' | 'propertyCollector' | 'rootFolder'>,
  query: ViewQuery,
  options: RetrieveOptions = {},
): Promise<ObjectContent[]> {
  try {
    return await readOnce(caller, content, query, options);
  } catch (err) {
    if (
      err instanceof VimFault &&
      err.faultType === 'ManagedObjectNotFound' &&
      err.operation.includes('RetrieveProperties')
    ) {
      return readOnce(caller, content, query, options);
    }
    throw err;
  }
}
