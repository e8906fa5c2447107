import { connect as netConnect, type Socket } from 'node:net';

const MARKER = '"uuid":"';

/**
 * One raw SSE subscriber of `GET /api/events` (as the floors' clients: a socket and a byte scan, no
 * parser): calls `onEvent` with the uuid and state of each OrderStateChanged it reads, and the
 * wall-clock time (ms) of the read. The order's uuid and state are the view's first fields after `url`.
 */
export function subscribeToOrders(
  port: number,
  token: string,
  query: string,
  onEvent: (uuid: string, state: string, atMs: number) => void,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1');
    let carry = '';
    let open = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const at = Date.now();
      const text = carry + chunk;
      if (!open && text.startsWith('HTTP/1.1 ')) {
        if (!text.startsWith('HTTP/1.1 200')) reject(new Error(text.slice(0, 200)));
        open = true;
        resolve(socket);
      }
      let consumed = 0;
      for (let start = text.indexOf('data: '); start >= 0; start = text.indexOf('data: ', start + 1)) {
        const end = text.indexOf('\n', start);
        if (end < 0) break;
        const line = text.slice(start, end);
        const uuidAt = line.indexOf(MARKER);
        const stateAt = line.indexOf('"state":"');
        if (uuidAt >= 0 && stateAt >= 0) {
          const uuid = line.slice(uuidAt + MARKER.length, uuidAt + MARKER.length + 36);
          const state = line.slice(stateAt + 9, line.indexOf('"', stateAt + 9));
          onEvent(uuid, state, at);
        }
        consumed = end;
      }
      carry = text.slice(consumed);
      if (carry.length > 1_000_000) carry = carry.slice(-1_000);
    });
    socket.on('error', reject);
    socket.write(
      `GET /api/events${query} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Authorization: Token ${token}\r\nAccept: text/event-stream\r\n\r\n`,
    );
  });
}
