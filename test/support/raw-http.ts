import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads the answer until the server
 * closes it (send `Connection: close`; the time limit ends the wait otherwise). No client library stands between the test and the
 * gateway: broken request lines, duplicate or invalid headers and lying lengths arrive as written.
 * Resolves null when the server closes without answering or the time runs out.
 */
export function rawRequest(
  port: number,
  request: Buffer | string,
  timeoutMs = 10_000,
): Promise<RawAnswer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before the whole request is written: the answer still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks)));
    });
    // No half-close after writing: Node's server aborts a request whose client has ended its side.
    socket.write(request);
  });
}

/** An HTTP/1.1 answer read whole (until the server closed): status, headers, the de-chunked body. */
export function parseAnswer(raw: Buffer): RawAnswer | null {
  // An interim answer (`100 Continue` to `Expect: 100-continue`) comes first: the final one follows.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1'))) {
    const end = raw.indexOf('\r\n\r\n');
    if (end < 0) return null;
    raw = raw.subarray(end + 4);
  }
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status: Number(status[1]), headers, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** A request's bytes: the request line, the headers as given (repeats allowed), then the body. */
export function rawHttp(
  method: string,
  target: string,
  headers: readonly (readonly [string, string])[],
  body: Buffer | string = '',
): Buffer {
  const head = [`${method} ${target} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`)].join(
    '\r\n',
  );
  return Buffer.concat([
    Buffer.from(`${head}\r\n\r\n`, 'latin1'),
    Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
  ]);
}
