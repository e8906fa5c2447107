import type { SoapCaller } from '../soap/soap-transport';
import type { CallOptions } from '../methods/invoke';
import {
  createFilter,
  createPropertyCollector,
  destroyPropertyCollector,
  waitForUpdatesEx,
} from '../methods/property-collector';
import { createContainerView, destroyView } from '../methods/view-manager';
import type { MoRef } from '../types/mo-ref';
import type { PropertySpec, UpdateSet } from '../types/property';
import type { ServiceContent } from '../types/service-content';

/** What a feed watches: the objects of `types` under `container`, with explicit paths. */
export interface UpdateFeedQuery {
  readonly types: readonly string[];
  readonly propSet: readonly PropertySpec[];
  /** Default the root folder. */
  readonly container?: MoRef;
}

/** How one WaitForUpdatesEx of a feed waits and how much it may answer. */
export interface UpdateFeedWait extends CallOptions {
  /** vCenter answers empty after this many seconds without a change. */
  readonly maxWaitSeconds: number;
  /** At most this many object updates per answer (more pending: `truncated`). */
  readonly maxObjectUpdates?: number;
}

/**
 * A long-lived property feed: a private PropertyCollector with one filter over a ContainerView,
 * its updates read with WaitForUpdatesEx from a version. Everything lives in the session that
 * opened it: a re-login drops it (vCenter then answers ManagedObjectNotFound for the collector).
 */
export interface UpdateFeed {
  readonly collector: MoRef;
  readonly filter: MoRef;
  readonly view: MoRef;
  /** One WaitForUpdatesEx after `version` ('' = the current state of every object). */
  next(version: string, wait: UpdateFeedWait): Promise<UpdateSet | undefined>;
  /** DestroyPropertyCollector (its filter with it) and DestroyView, best effort. */
  close(): Promise<void>;
}

/**
 * Opens an UpdateFeed: CreatePropertyCollector + CreateContainerView + CreateFilter (three round
 * trips); afterwards its only cost on vCenter is the one held WaitForUpdatesEx per answer.
 */
export async function openUpdateFeed(
  caller: SoapCaller,
  content: Pick<ServiceContent, 'viewManager' | 'propertyCollector' | 'rootFolder'>,
  query: UpdateFeedQuery,
  options: CallOptions = {},
): Promise<UpdateFeed> {
  const collector = await createPropertyCollector(caller, content.propertyCollector, options);
  let view: MoRef | undefined;
  try {
    view = await createContainerView(
      caller,
      content.viewManager,
      query.container ?? content.rootFolder,
      query.types,
      true,
      options,
    );
    const filter = await createFilter(
      caller,
      collector,
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
      false,
      options,
    );
    const made = view;
    return {
      collector,
      filter,
      view: made,
      next: (version, wait) =>
        waitForUpdatesEx(
          caller,
          collector,
          version,
          wait.maxWaitSeconds,
          { signal: wait.signal, timeoutMs: wait.timeoutMs },
          wait.maxObjectUpdates,
        ),
      close: async () => {
        await destroyPropertyCollector(caller, collector, { timeoutMs: 10_000 }).catch(() => undefined);
        await destroyView(caller, made, { timeoutMs: 10_000 }).catch(() => undefined);
      },
    };
  } catch (err) {
    await destroyPropertyCollector(caller, collector, { timeoutMs: 10_000 }).catch(() => undefined);
    if (view !== undefined) await destroyView(caller, view, { timeoutMs: 10_000 }).catch(() => undefined);
    throw err;
  }
}
