import type { SoapCaller } from '../soap/soap-transport';
import { VimTransportError } from '../soap/vim-errors';
import type { XmlValue } from '../xml/decoder';
import { asMoRef, asObject, asString } from '../xml/values';
import type { MoRef } from '../types/mo-ref';
import type { ServiceContent } from '../types/service-content';
import { invoke, type CallOptions } from './invoke';

/** The ServiceInstance singleton every session starts from. */
export const SERVICE_INSTANCE: MoRef = { type: 'ServiceInstance', value: 'ServiceInstance' };

function requiredRef(content: XmlValue | undefined, field: string): MoRef {
  const ref = asMoRef(asObject(content)?.[field]);
  if (ref === undefined) {
    throw new VimTransportError('RetrieveServiceContent', 'protocol', `ServiceContent has no ${field}`);
  }
  return ref;
}

/**
 * ServiceInstance.RetrieveServiceContent: the managers' references and AboutInfo.
 * No session needed. One round trip; cache the result per vCenter.
 */
export async function retrieveServiceContent(
  caller: SoapCaller,
  options?: CallOptions,
): Promise<ServiceContent> {
  const value = await invoke(caller, 'RetrieveServiceContent', SERVICE_INSTANCE, {}, options);
  const about = asObject(asObject(value)?.about);
  return {
    rootFolder: requiredRef(value, 'rootFolder'),
    propertyCollector: requiredRef(value, 'propertyCollector'),
    viewManager: requiredRef(value, 'viewManager'),
    sessionManager: requiredRef(value, 'sessionManager'),
    virtualDiskManager: asMoRef(asObject(value)?.virtualDiskManager),
    perfManager: asMoRef(asObject(value)?.perfManager),
    about: {
      name: asString(about?.name) ?? '',
      fullName: asString(about?.fullName) ?? '',
      version: asString(about?.version) ?? '',
      apiType: asString(about?.apiType) ?? '',
      apiVersion: asString(about?.apiVersion) ?? '',
      instanceUuid: asString(about?.instanceUuid),
    },
  };
}

/** ServiceInstance.CurrentTime: the server clock; the cheapest authenticated call (keep-alive). One round trip. */
export async function currentTime(caller: SoapCaller, options?: CallOptions): Promise<string> {
  return asString(await invoke(caller, 'CurrentTime', SERVICE_INSTANCE, {}, options)) ?? '';
}
