import type { SoapCaller } from '../soap/soap-transport';
import type { XmlValue } from '../xml/decoder';
import type { CallOptions } from '../methods/invoke';
import { continueRetrievePropertiesEx, retrievePropertiesEx } from '../methods/property-collector';
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
  const { pageSize = 1000, ...call } = options;
  let page = await retrievePropertiesEx(caller, collector, specs, pageSize, call);
  const objects = [...page.objects];
  while (page.token !== undefined) {
    call.signal?.throwIfAborted();
    page = await continueRetrievePropertiesEx(caller, collector, page.token, call);
    objects.push(...page.objects);
  }
  return objects;
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
