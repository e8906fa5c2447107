import type { SoapCaller } from '../soap/soap-transport';
import { VimFault } from '../soap/vim-errors';
import { createContainerView, destroyView } from '../methods/view-manager';
import type { MoRef } from '../types/mo-ref';
import type { ObjectContent, PropertyFilterSpec, PropertySpec } from '../types/property';
import type { ServiceContent } from '../types/service-content';
import { retrieveAll, retrievePages, type RetrieveOptions } from './retrieve';

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

/** The filter spec that reads `query.propSet` of every object `view` holds. */
function viewSpec(view: MoRef, query: ViewQuery): PropertyFilterSpec {
  return {
    propSet: query.propSet,
    objectSet: [
      {
        obj: view,
        skip: true,
        selectSet: [{ name: 'traverseView', type: 'ContainerView', path: 'view', skip: false }],
      },
    ],
  };
}

function createView(
  caller: SoapCaller,
  content: Pick<ServiceContent, 'viewManager' | 'rootFolder'>,
  query: ViewQuery,
  options: RetrieveOptions,
): Promise<MoRef> {
  return createContainerView(
    caller,
    content.viewManager,
    query.container ?? content.rootFolder,
    query.types,
    query.recursive ?? true,
    { signal: options.signal, timeoutMs: options.timeoutMs },
  );
}

/** A view lost to a re-login between its creation and its read. */
function viewLost(err: unknown): boolean {
  return (
    err instanceof VimFault &&
    err.faultType === 'ManagedObjectNotFound' &&
    err.operation.includes('RetrieveProperties')
  );
}

async function readOnce(
  caller: SoapCaller,
  content: Pick<ServiceContent, 'viewManager' | 'propertyCollector' | 'rootFolder'>,
  query: ViewQuery,
  options: RetrieveOptions,
): Promise<ObjectContent[]> {
  const view = await createView(caller, content, query, options);
  try {
    return await retrieveAll(caller, content.propertyCollector, [viewSpec(view, query)], options);
  } finally {
    // Best effort: a view dies with its session anyway; never mask the retrieval's own error.
    await destroyView(caller, view, { timeoutMs: options.timeoutMs }).catch(() => undefined);
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
    if (viewLost(err)) return readOnce(caller, content, query, options);
    throw err;
  }
}

/**
 * What retrieveFromView reads, page by page (`pageSize` objects at most), the next page asked
 * for only when the caller wants it: memory follows a page, not the number of objects. The view
 * is destroyed when the caller is done or stops (the rest of the result cancelled). A view lost
 * to a re-login before its first page is recreated once; one lost later fails the read (its
 * pages so far were already handed out).
 */
export async function* retrieveFromViewPages(
  caller: SoapCaller,
  content: Pick<ServiceContent, 'viewManager' | 'propertyCollector' | 'rootFolder'>,
  query: ViewQuery,
  options: RetrieveOptions = {},
): AsyncGenerator<readonly ObjectContent[], void, undefined> {
  for (let attempt = 0; ; attempt++) {
    const view = await createView(caller, content, query, options);
    let started = false;
    try {
      for await (const page of retrievePages(
        caller,
        content.propertyCollector,
        [viewSpec(view, query)],
        options,
      )) {
        started = true;
        yield page;
      }
      return;
    } catch (err) {
      if (started || attempt > 0 || !viewLost(err)) throw err;
    } finally {
      await destroyView(caller, view, { timeoutMs: options.timeoutMs }).catch(() => undefined);
    }
  }
}
