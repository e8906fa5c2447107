import { SOAPENV_NS } from '../soap/soap-envelope';
import type { SoapReply } from '../soap/soap-transport';
import { VimTransportError } from '../soap/vim-errors';
import { decodeElement, type XmlValue } from './decoder';
import { faultFromSoapFault } from './fault-reader';
import { parseXml, type XmlElement } from './xml-tree';

function bodyOf(operation: string, xml: string): XmlElement {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (err) {
    throw new VimTransportError(
      operation,
      'protocol',
      `${operation}: the answer is not XML (${String(err)})`,
      { cause: err },
    );
  }
  const body =
    root.ns === SOAPENV_NS && root.name === 'Envelope'
      ? root.children.find((c) => c.ns === SOAPENV_NS && c.name === 'Body')
      : undefined;
  if (body === undefined) {
    throw new VimTransportError(
      operation,
      'protocol',
      `${operation}: the answer is not a SOAP envelope: ${xml.slice(0, 200)}`,
    );
  }
  return body;
}

/**
 * Reads a SOAP reply: returns the decoded `returnval` (an array when it repeats, undefined for a
 * void method) or throws the reply's fault as a VimFault. Pure, linear in the body size.
 */
export function readResponse(operation: string, reply: SoapReply): XmlValue | undefined {
  const body = bodyOf(operation, reply.body);
  const fault = body.children.find((c) => c.ns === SOAPENV_NS && c.name === 'Fault');
  if (fault !== undefined) throw faultFromSoapFault(operation, fault);
  if (reply.status !== 200) {
    throw new VimTransportError(
      operation,
      'protocol',
      `${operation}: HTTP ${reply.status} without a SOAP fault`,
      { status: reply.status },
    );
  }
  const response = body.children[0];
  if (response === undefined) {
    throw new VimTransportError(operation, 'protocol', `${operation}: empty SOAP body`);
  }
  const values = response.children.filter((c) => c.name === 'returnval').map(decodeElement);
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values;
}
