import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { asNumber, asObject, asString, escapeXml, SOAPENV_NS, XSD_NS, XSI_NS } from '@app/vim25';
import type { SdkCall } from './sdk-request';
import type { SdkProxy } from './sdk-proxy';
import { answerSoapFault, type FrontFault } from './soap-faults';

/** "The token does not match the token from the previous call": vCenter's fault for ContinueRetrievePropertiesEx. */
const INVALID_TOKEN: FrontFault = {
  type: 'InvalidArgument',
  message: 'A specified parameter was not correct: token',
  fields: { invalidProperty: 'token' },
};

/** Results paged out and not yet read whole (a bench's pull fits; a leak stays bounded). */
const RESULTS_KEPT = 64;

/**
 * The `<objects>` elements of a RetrievePropertiesEx answer, in order; undefined for an answer
 * with no result. An ObjectContent holds no element of that name (obj, propSet, missingSet). Pure.
 */
export function readResultObjects(answer: string): string[] | undefined {
  if (!answer.includes('<returnval>')) return undefined;
  return [...answer.matchAll(/<objects>[\s\S]*?<\/objects>/g)].map((m) => m[0]);
}

/** A RetrieveResult answer as vCenter writes it: `token` (WSDL order: first) when more remain. Pure. */
export function retrieveResultEnvelope(
  method: 'RetrievePropertiesEx' | 'ContinueRetrievePropertiesEx',
  objects: readonly string[],
  token: string | undefined,
): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soapenv="${SOAPENV_NS}" xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}">` +
    `<soapenv:Body><${method}Response xmlns="urn:vim25"><returnval>` +
    `${token === undefined ? '' : `<token>${escapeXml(token)}</token>`}${objects.join('')}` +
    `</returnval></${method}Response></soapenv:Body></soapenv:Envelope>`
  );
}

function cancelEnvelope(): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenv="${SOAPENV_NS}"><soapenv:Body>` +
    '<CancelRetrievePropertiesExResponse xmlns="urn:vim25"></CancelRetrievePropertiesExResponse>' +
    '</soapenv:Body></soapenv:Envelope>'
  );
}

async function readAll(stream: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface PendingResult {
  readonly session: string;
  readonly maxObjects: number;
  objects: string[];
}

/**
 * RetrievePropertiesEx paged as vCenter pages it, where vcsim (govmomi 0.24) ignores
 * `options.maxObjects` and has no ContinueRetrievePropertiesEx (MethodNotFound): the front reads
 * vcsim's whole answer, hands out at most `maxObjects` objects with a token for the rest, and
 * answers ContinueRetrievePropertiesEx (the next page, the last without a token; a token not its
 * session's, or already read, InvalidArgument) and CancelRetrievePropertiesEx itself. A token
 * belongs to the session that was given it, as vCenter's does.
 */
export class RetrievePages {
  private readonly pending = new Map<string, PendingResult>();

  constructor(private readonly proxy: SdkProxy) {}

  async retrieve(req: IncomingMessage, res: ServerResponse, body: Buffer, call: SdkCall): Promise<void> {
    const maxObjects = asNumber(asObject(call.args.options)?.maxObjects);
    const reply = await this.proxy.send(req, body);
    const answer = await readAll(reply);
    const objects = reply.statusCode === 200 ? readResultObjects(answer) : undefined;
    if (
      maxObjects === undefined ||
      maxObjects <= 0 ||
      objects === undefined ||
      objects.length <= maxObjects
    ) {
      res.writeHead(reply.statusCode ?? 502, { 'content-type': 'text/xml; charset=utf-8' }).end(answer);
      return;
    }
    const token = randomUUID();
    this.pending.set(token, {
      session: req.headers.cookie ?? '',
      maxObjects,
      objects: objects.slice(maxObjects),
    });
    for (const old of this.pending.keys()) {
      if (this.pending.size <= RESULTS_KEPT) break;
      this.pending.delete(old);
    }
    this.send(res, 'RetrievePropertiesEx', objects.slice(0, maxObjects), token);
  }

  continue(req: IncomingMessage, res: ServerResponse, call: SdkCall): void {
    const token = asString(call.args.token) ?? '';
    const result = this.pending.get(token);
    if (result === undefined || result.session !== (req.headers.cookie ?? ''))
      return answerSoapFault(res, INVALID_TOKEN);
    const page = result.objects.splice(0, result.maxObjects);
    const more = result.objects.length > 0;
    if (!more) this.pending.delete(token);
    this.send(res, 'ContinueRetrievePropertiesEx', page, more ? token : undefined);
  }

  cancel(req: IncomingMessage, res: ServerResponse, call: SdkCall): void {
    const token = asString(call.args.token) ?? '';
    const result = this.pending.get(token);
    if (result === undefined || result.session !== (req.headers.cookie ?? ''))
      return answerSoapFault(res, INVALID_TOKEN);
    this.pending.delete(token);
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(cancelEnvelope());
  }

  private send(
    res: ServerResponse,
    method: 'RetrievePropertiesEx' | 'ContinueRetrievePropertiesEx',
    objects: readonly string[],
    token: string | undefined,
  ): void {
    res
      .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
      .end(retrieveResultEnvelope(method, objects, token));
  }
}
