import type { ServerResponse } from 'node:http';
import { encodeField, escapeXml, SOAPENV_NS, XSD_NS, XSI_NS, type SoapObject } from '@app/vim25';

/** A vim25 fault the front raises: its type, vCenter's message and the fault's own fields (WSDL order). */
export interface FrontFault {
  readonly type: string;
  readonly message: string;
  readonly fields?: SoapObject;
}

/**
 * The SOAP 1.1 fault envelope vcsim and vCenter answer with (HTTP 500): `faultcode`
 * ServerFaultCode, `faultstring` = the message, `detail` holding `<{Type}Fault xmlns="urn:vim25"
 * xsi:type="{Type}">` with the fault's fields, as in the recorded vcsim faults. Pure.
 */
export function soapFaultEnvelope(fault: FrontFault): string {
  let fields = '';
  for (const [key, value] of Object.entries(fault.fields ?? {})) fields += encodeField(key, value);
  const type = escapeXml(fault.type);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soapenv="${SOAPENV_NS}" xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}">` +
    '<soapenv:Body><soapenv:Fault><faultcode>ServerFaultCode</faultcode>' +
    `<faultstring>${escapeXml(fault.message)}</faultstring>` +
    `<detail><${type}Fault xmlns="urn:vim25" xsi:type="${type}">${fields}</${type}Fault></detail>` +
    '</soapenv:Fault></soapenv:Body></soapenv:Envelope>'
  );
}

/** Answers `res` with `fault` as vCenter does: HTTP 500, text/xml. */
export function answerSoapFault(res: ServerResponse, fault: FrontFault): void {
  res.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' }).end(soapFaultEnvelope(fault));
}
