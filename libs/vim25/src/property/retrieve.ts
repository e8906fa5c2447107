import type { SoapCaller } from '../soap/soap-transport';
import type { XmlValue } from '../xml/decoder';
import type { CallOptions } from '../methods/invoke';
import {
  cancelRetrievePropertiesEx,
  continueRetrievePropertiesEx,
  retrievePropertiesEx,
} from '../methods/property-collector';
import type { MoRef } from '../types/mo-ref';
import type { ObjectContent, PropertyFilterSpec } from '../types/property';

/** Options of a paged retrieval. */
export interface RetrieveOptions extends CallOptions {
  /** Objects per page asked of vCenter (RetrieveOptions.maxObjects); default 1000. */
  readonly pageSize?: number;
}

/**
 * Reads every object matched by `specs`: RetrievePropertiesEx, then ContinueRetrievePropertiesEx
 * while vCenter returns a token. Cost: 1 round trip per page (1 for up to `pageSize` objects).
 * The signal and the timeout apply to each page.
 */
export async function retrieveAll(
  caller: SoapCaller,
  collector: MoRef,
  specs: readonly PropertyFilterSpec[],
  options: RetrieveOptions = {},
): Promise<ObjectContent[]> {
  const objects: ObjectContent[] = [];
  for await (const page of retrievePages(caller, collector, specs, options)) objects.push(...page);
  return objects;
}

/**
 * The objects matched by `specs`, page by page as vCenter hands them (RetrievePropertiesEx, then
 * ContinueRetrievePropertiesEx while it returns a token), so that a caller holds one page at a
 * time. The next page is asked for only when the caller wants it; a caller that stops early (or
 * an abort between pages) has the rest cancelled (CancelRetrievePropertiesEx, best effort), so
 * vCenter does not keep the result until the session ends. 1 round trip per page.
 */
export async function* retrievePages(
  caller: SoapCaller,
  collector: MoRef,
  specs: readonly PropertyFilterSpec[],
  options: RetrieveOptions = {},
): AsyncGenerator<readonly ObjectContent[], void, undefined> {
  const { pageSize = 1000, ...call } = options;
  let page = await retrievePropertiesEx(caller, collector, specs, pageSize, call);
  let token = page.token;
  try {
    yield page.objects;
    while (token !== undefined) {
      call.signal?.throwIfAborted();
      page = await continueRetrievePropertiesEx(caller, collector, token, call);
      token = page.token;
      yield page.objects;
    }
  } finally {
    // Only when the pages were not all read: the last page carries no token.
    if (token !== undefined)
      await cancelRetrievePropertiesEx(caller, collector, token, { timeoutMs: call.timeoutMs }).catch(
        () => undefined,
      );
  }
}

/**
 * Reads properties `paths` of one object (no traversal). One round trip. Returns the map of
 * path → value (unset properties are absent) and the object's missingSet.
 */
export async function retrieveObject(
  caller: SoapCaller,
  collector: MoRef,
  obj: MoRef,
  paths: readonly string[],
  options?: CallOptions,
): Promise<ObjectContent | undefined> {
  const spec: PropertyFilterSpec = {
    propSet: [{ type: obj.type, pathSet: paths }],
    objectSet: [{ obj, skip: false }],
  };
  const objects = await retrieveAll(caller, collector, [spec], options);
  return objects[0];
}

/** Reads one property of one object (undefined when unset). One round trip. */
export async function retrieveProperty(
  caller: SoapCaller,
  collector: MoRef,
  obj: MoRef,
  path: string,
  options?: CallOptions,
): Promise<XmlValue | undefined> {
  return (await retrieveObject(caller, collector, obj, [path], options))?.props.get(path);
}
