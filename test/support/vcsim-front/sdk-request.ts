import {
  attrOf,
  decodeElement,
  parseXml,
  SOAPENV_NS,
  type MoRef,
  type XmlObject,
  type XmlValue,
} from '@app/vim25';

/** One vim25 call as the front reads it from a `/sdk` POST body. */
export interface SdkCall {
  /** The body element's local name, e.g. `ReconfigVM_Task`. */
  readonly method: string;
  /** The `_this` object, when the call names one. */
  readonly self?: MoRef;
  /** The other parameters, decoded (untyped leaves stay strings). */
  readonly args: XmlObject;
}

/**
 * Reads the method, `_this` and parameters of a SOAP request; undefined when the body is not a
 * SOAP envelope with a body element (the front then forwards it untouched and vcsim answers). Pure.
 */
export function readSdkCall(body: string): SdkCall | undefined {
  let root;
  try {
    root = parseXml(body);
  } catch {
    return undefined;
  }
  if (root.ns !== SOAPENV_NS || root.name !== 'Envelope') return undefined;
  const soapBody = root.children.find((c) => c.ns === SOAPENV_NS && c.name === 'Body');
  const call = soapBody?.children[0];
  if (call === undefined) return undefined;
  const thisEl = call.children.find((c) => c.name === '_this');
  const type = thisEl === undefined ? undefined : attrOf(thisEl, '', 'type');
  const args: Record<string, XmlValue> = {};
  for (const child of call.children) {
    if (child === thisEl) continue;
    const value = decodeElement(child);
    const prior = args[child.name];
    args[child.name] =
      prior === undefined ? value : [...(Array.isArray(prior) ? (prior as XmlValue[]) : [prior]), value];
  }
  return {
    method: call.name,
    self: type === undefined ? undefined : { type, value: thisEl?.text.trim() ?? '' },
    args,
  };
}

/** True for a `*_Task` method called on a VirtualMachine (vCenter runs one at a time per VM). Pure. */
export function isVmTask(call: SdkCall): boolean {
  return call.self?.type === 'VirtualMachine' && call.method.endsWith('_Task');
}
