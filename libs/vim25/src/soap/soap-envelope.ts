import { encodeField, type SoapObject } from './soap-encoder';
import { assertXmlName, escapeXml } from './xml-escape';

/** Namespace of every vim25 body element. */
export const VIM25_NS = 'urn:vim25';
/** SOAP 1.1 envelope namespace. */
export const SOAPENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
/** XML Schema namespace (`xsd:` primitive types). */
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
/** XML Schema instance namespace (`xsi:type`). */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * Builds the SOAP 1.1 envelope for one vim25 method call:
 * `<Method xmlns="urn:vim25"><_this type="...">...</_this>args...</Method>`.
 * `args` are written in their key order (the WSDL order of the method's parameters). Pure.
 */
export function buildEnvelope(
  method: string,
  self: { type: string; value: string },
  args: SoapObject = {},
): string {
  const name = assertXmlName(method);
  let body = `<_this type="${escapeXml(self.type)}">${escapeXml(self.value)}</_this>`;
  for (const [key, value] of Object.entries(args)) body += encodeField(key, value);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenv="${SOAPENV_NS}" xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}">` +
    `<soapenv:Body><${name} xmlns="${VIM25_NS}">${body}</${name}></soapenv:Body></soapenv:Envelope>`
  );
}
