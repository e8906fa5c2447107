import { SOAPENV_NS } from '../soap/soap-envelope';
import type { SoapReply } from '../soap/soap-transport';
import { VimTransportError } from '../soap/vim-errors';
import type { XmlValue } from './decoder';
import { faultFromSoapFault } from './fault-reader';
import { NamespaceScope } from './namespace-scope';
import { ValueBuilder } from './value-builder';
import { scanXml, type XmlScanHandler } from './xml-scanner';
import { parseXml, type XmlElement } from './xml-tree';

function notXml(operation: string, err: unknown): VimTransportError {
  return new VimTransportError(
    operation,
    'protocol',
    // The parser's words may quote the answer, which may be another service's than vCenter's.
    `${operation}: the answer is not XML`,
    {
      cause: err,
    },
  );
}

// The answer is not quoted: what answered may be another service than vCenter.
function notEnvelope(operation: string): VimTransportError {
  return new VimTransportError(operation, 'protocol', `${operation}: the answer is not a SOAP envelope`);
}

/** The SOAP Body of `xml` as an element tree (the path for faults, which are small). */
function bodyOf(operation: string, xml: string): XmlElement {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (err) {
    throw notXml(operation, err);
  }
  const body =
    root.ns === SOAPENV_NS && root.name === 'Envelope'
      ? root.children.find((c) => c.ns === SOAPENV_NS && c.name === 'Body')
      : undefined;
  if (body === undefined) throw notEnvelope(operation);
  return body;
}

/** The tree path: throws the Body's fault as a VimFault, if it holds one. */
function throwFaultOf(operation: string, reply: SoapReply): void {
  const body = bodyOf(operation, reply.body);
  const fault = body.children.find((c) => c.ns === SOAPENV_NS && c.name === 'Fault');
  if (fault !== undefined) throw faultFromSoapFault(operation, fault);
}

/**
 * Scanner events of a successful reply, routed by depth: Envelope (1) › Body (2) › the method's
 * response (3) › each `returnval` (4), decoded by a ValueBuilder as it streams past; no element
 * tree is built. A Fault in the Body is only noted: the tree path reads it.
 */
class ResponseScan implements XmlScanHandler {
  private readonly ns = new NamespaceScope();
  private readonly declared: number[] = [];
  private readonly builder = new ValueBuilder(this.ns);
  private decoding = false;
  private depth = 0;
  private inBody = false;
  private inResponse = false;
  envelope = false;
  body = false;
  fault = false;
  response = false;
  readonly values: XmlValue[] = [];

  open(tag: string, raw: string[], selfClosing: boolean): void {
    const declared = this.ns.enter(raw);
    if (this.decoding) this.builder.open(tag, raw, false);
    else this.route(tag, raw);
    this.declared.push(declared);
    this.depth++;
    if (selfClosing) this.close();
  }

  close(): void {
    this.depth--;
    if (this.decoding) {
      this.builder.close();
      if (this.builder.done) {
        this.values.push(this.builder.value as XmlValue);
        this.decoding = false;
      }
    } else if (this.depth === 1) this.inBody = false;
    else if (this.depth === 2) this.inResponse = false;
    this.ns.leave(this.declared.pop() ?? 0);
  }

  text(text: string): void {
    if (this.decoding) this.builder.text(text);
  }

  private route(tag: string, raw: string[]): void {
    const colon = tag.indexOf(':');
    const local = colon < 0 ? tag : tag.slice(colon + 1);
    const prefix = colon < 0 ? '' : tag.slice(0, colon);
    const soapenv = (this.ns.resolve(prefix) ?? prefix) === SOAPENV_NS;
    if (this.depth === 0) {
      this.envelope = soapenv && local === 'Envelope';
    } else if (this.depth === 1 && this.envelope && soapenv && local === 'Body') {
      this.inBody = this.body = true;
    } else if (this.depth === 2 && this.inBody) {
      if (soapenv && local === 'Fault') this.fault = true;
      else if (!this.response) this.inResponse = this.response = true;
    } else if (this.depth === 3 && this.inResponse && local === 'returnval') {
      this.builder.reset();
      this.builder.open(tag, raw, false);
      this.decoding = true;
    }
  }
}

/**
 * Reads a SOAP reply: returns the decoded `returnval` (an array when it repeats, undefined for a
 * void method) or throws the reply's fault as a VimFault. A 200 answer is decoded in one
 * streaming pass (no element tree, see ValueBuilder); a fault through the element tree. Pure,
 * linear in the body size.
 */
export function readResponse(operation: string, reply: SoapReply): XmlValue | undefined {
  let values: readonly XmlValue[];
  if (reply.status === 200) {
    const scan = new ResponseScan();
    try {
      scanXml(reply.body, scan);
    } catch (err) {
      throw notXml(operation, err);
    }
    if (!scan.body) throw notEnvelope(operation);
    if (scan.fault) throwFaultOf(operation, reply);
    if (!scan.response) throw new VimTransportError(operation, 'protocol', `${operation}: empty SOAP body`);
    values = scan.values;
  } else {
    throwFaultOf(operation, reply);
    throw new VimTransportError(
      operation,
      'protocol',
      `${operation}: HTTP ${reply.status} without a SOAP fault`,
      {
        status: reply.status,
      },
    );
  }
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values;
}
