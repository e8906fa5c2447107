import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { encodeField, SOAPENV_NS, XSD_NS, XSI_NS } from '@app/vim25';
import type { ConsoleTicketLedger } from './console-tickets';

/** Where the front serves the console tickets it issues (it stands in for the ESXi host's endpoint). */
export interface ConsoleEndpoint {
  readonly host: string;
  readonly port: number;
  /** SHA-1 of the front's certificate, `AA:BB:...`, as VirtualMachineTicket.sslThumbprint spells it. */
  readonly sslThumbprint: string;
}

/** The fields of a webmks VirtualMachineTicket, in the WSDL's order. */
export interface WebMksTicket {
  readonly ticket: string;
  readonly cfgFile: string;
  readonly endpoint: ConsoleEndpoint;
}

/** The WebSocket URL of a webmks ticket: `wss://{host}:{port}/ticket/{ticket}` (VirtualMachineTicketType). Pure. */
export function webMksUrl(ticket: string, endpoint: ConsoleEndpoint): string {
  return `wss://${endpoint.host}:${endpoint.port}/ticket/${ticket}`;
}

/**
 * The AcquireTicket answer as vCenter 8 gives it for `webmks`: a VirtualMachineTicket with
 * `ticket`, `cfgFile` (required by the WSDL), `host`, `port`, `sslThumbprint` and `url`, in the
 * envelope vcsim answers with. Pure.
 */
export function acquireTicketEnvelope(t: WebMksTicket): string {
  const fields =
    encodeField('ticket', t.ticket) +
    encodeField('cfgFile', t.cfgFile) +
    encodeField('host', t.endpoint.host) +
    encodeField('port', t.endpoint.port) +
    encodeField('sslThumbprint', t.endpoint.sslThumbprint) +
    encodeField('url', webMksUrl(t.ticket, t.endpoint));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soapenv="${SOAPENV_NS}" xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}">` +
    `<soapenv:Body><AcquireTicketResponse xmlns="urn:vim25"><returnval>${fields}</returnval>` +
    '</AcquireTicketResponse></soapenv:Body></soapenv:Envelope>'
  );
}

// RFC 6455 §4.2.2: the accept key is the SHA-1 of the client's key and this GUID, base64.
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * A WebSocket upgrade to `/ticket/{ticket}`: the first use of an unexpired ticket completes the
 * handshake (101) and the connection is closed at once (the front has no console to stream, so
 * accepting is all it shows); a used, expired or unknown ticket is refused with 403 and never opens.
 */
export function serveConsoleUpgrade(
  tickets: ConsoleTicketLedger,
  req: IncomingMessage,
  socket: Duplex,
): void {
  const ticket = decodeURIComponent((req.url ?? '').replace(/^\/ticket\//, '').split('?')[0] ?? '');
  const key = req.headers['sec-websocket-key'];
  const outcome = typeof key === 'string' && ticket !== '' ? tickets.redeem(ticket) : 'unknown';
  if (outcome !== 'accepted' || typeof key !== 'string') {
    const body = `console ticket ${outcome}\n`;
    socket.end(
      `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    return;
  }
  const accept = createHash('sha1')
    .update(key + WEBSOCKET_GUID)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  // A close frame (opcode 8, no payload), then the end: the ticket is spent.
  socket.end(Buffer.from([0x88, 0x00]));
}
