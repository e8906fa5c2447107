import { readFile } from 'node:fs/promises';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { createServer, type Server } from 'node:https';
import { Agent, request } from 'undici';
import { createTestTls, type TestTls } from '../../../../test/support/tls-ca';

/** One request the server received: what a backend_url pointed at it would be sent. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * What the server answers: a fixed answer (an internal service reached through a hostile
 * backend_url), or whatever a real vCenter at `forwardTo` answers (a look-alike vCenter run by
 * whoever set backend_url, which would collect the password a Login sends it).
 */
export type RecordingAnswer = { status: number; body: string } | { forwardTo: string; caPem: string };

/**
 * An HTTPS server on 127.0.0.1 that records every request (headers and body) and answers as told.
 * Its certificate is for 127.0.0.1/localhost, signed by `caPem`.
 */
export interface RecordingServer {
  readonly url: string;
  readonly caPem: string;
  readonly requests: RecordedRequest[];
  /** Every byte received, headers and bodies, as text (to look for a password anywhere). */
  received(): string;
  stop(): Promise<void>;
}

export async function startRecordingServer(answer: RecordingAnswer): Promise<RecordingServer> {
  const tls: TestTls = await createTestTls();
  const requests: RecordedRequest[] = [];
  const upstream = 'forwardTo' in answer ? new Agent({ connect: { ca: answer.caPem } }) : undefined;
  const reply = async (
    recorded: RecordedRequest,
  ): Promise<{ status: number; body: string; headers: Record<string, string | string[]> }> => {
    if (!('forwardTo' in answer)) return { ...answer, headers: { 'content-type': 'application/json' } };
    const headers = Object.fromEntries(
      Object.entries(recorded.headers).filter(([name]) => name !== 'host' && name !== 'connection'),
    );
    const res = await request(new URL(recorded.path, answer.forwardTo), {
      method: recorded.method as 'POST',
      headers: headers as Record<string, string>,
      body: recorded.body === '' ? undefined : recorded.body,
      dispatcher: upstream,
    });
    const passOn: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && !['connection', 'transfer-encoding', 'content-length'].includes(name))
        passOn[name] = value;
    return { status: res.statusCode, body: await res.body.text(), headers: passOn };
  };
  const server: Server = createServer(
    { key: await readFile(tls.keyPath), cert: await readFile(tls.certPath) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const recorded = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        requests.push(recorded);
        reply(recorded).then(
          (answered) => {
            res.writeHead(answered.status, answered.headers);
            res.end(answered.body);
          },
          () => {
            res.writeHead(502);
            res.end();
          },
        );
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caPem: tls.caPem,
    requests,
    received: () => requests.map((r) => `${JSON.stringify(r.headers)}\n${r.body}`).join('\n'),
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await upstream?.close();
      await tls.remove();
    },
  };
}

/** A port that accepts connections and never says a word (a filtering firewall's silence). */
export async function startSilentPort(): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
