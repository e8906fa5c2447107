import { VimFault } from '../soap/vim-errors';
import { decodeElement, xsiTypeOf, type XmlValue } from './decoder';
import { asArray, asObject, asString } from './values';
import type { XmlElement } from './xml-tree';

function faultMessageText(fault: XmlValue | undefined): string {
  // MethodFault.faultMessage: LocalizableMessage[] with an optional English `message`.
  for (const m of asArray(asObject(fault)?.faultMessage)) {
    const text = asString(asObject(m)?.message);
    if (text) return text;
  }
  return '';
}

/**
 * Builds a VimFault from a decoded LocalizedMethodFault (`TaskInfo.error`, `missingSet.fault`):
 * the fault type from `fault._type`, the message from `localizedMessage` (or the fault's own
 * faultMessage, or the type). Pure.
 */
export function faultFromLocalized(operation: string, localized: XmlValue | undefined): VimFault {
  const obj = asObject(localized);
  const fault = asObject(obj?.fault) ?? obj;
  const faultType = fault?._type ?? 'MethodFault';
  const message = asString(obj?.localizedMessage) || faultMessageText(fault) || faultType;
  return new VimFault(operation, faultType, message, fault);
}

/**
 * Builds a VimFault from a `<soapenv:Fault>` element: type from the detail child's `xsi:type`
 * (by namespace URI) or its element name less `Fault`, message from `faultstring` (often empty
 * on vcsim) or the fault's faultMessage, else the type. Pure.
 */
export function faultFromSoapFault(operation: string, faultEl: XmlElement): VimFault {
  const faultstring = faultEl.children.find((c) => c.name === 'faultstring')?.text.trim() ?? '';
  const detailChild = faultEl.children.find((c) => c.name === 'detail')?.children[0];
  if (detailChild === undefined) {
    const code = faultEl.children.find((c) => c.name === 'faultcode')?.text.trim() || 'SoapFault';
    return new VimFault(operation, code.replace(/^.*:/, ''), faultstring || code);
  }
  const faultType = xsiTypeOf(detailChild)?.name ?? detailChild.name.replace(/Fault$/, '');
  const decoded = decodeElement(detailChild);
  const detail = asObject(decoded) ?? { _type: faultType };
  const message = faultstring || faultMessageText(detail) || faultType;
  return new VimFault(operation, faultType, message, { ...detail, _type: faultType });
}
