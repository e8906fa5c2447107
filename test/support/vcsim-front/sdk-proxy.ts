import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request } from 'node:https';
import { pipeline } from 'node:stream/promises';

/** Forwards requests byte for byte (streamed both ways, headers kept, cookies included) to vcsim. */
export class SdkProxy {
  private readonly agent: Agent;
  private readonly target: URL;

  constructor(vcsimUrl: string, caPem: string) {
    this.target = new URL(vcsimUrl);
    this.agent = new Agent({ keepAlive: true, ca: caPem, maxSockets: 64 });
  }

  /** Streams `req` to vcsim and vcsim's answer back; a failure before the answer is a 502. */
  async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const upstream = request({
      agent: this.agent,
      host: this.target.hostname,
      port: this.target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: this.target.host },
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      upstream.once('response', resolve);
      upstream.once('error', reject);
    });
    // Awaited below; an early socket error must not become an unhandled rejection meanwhile.
    answered.catch(() => undefined);
    try {
      await pipeline(req, upstream);
      const reply = await answered;
      res.writeHead(reply.statusCode ?? 502, reply.rawHeaders);
      await pipeline(reply, res);
    } catch (err) {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`vcsim front: ${String(err)}`);
      } else {
        res.destroy();
      }
    }
  }

  /**
   * Sends a request whose body the front already read (`body`, unchanged or rewritten) to vcsim
   * with the client's method, path and headers; resolves with vcsim's answer, not yet read.
   * `signal` abandons it (vcsim's answer is then never read).
   */
  send(req: IncomingMessage, body: Buffer, signal?: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const upstream = request({
        agent: this.agent,
        host: this.target.hostname,
        port: this.target.port,
        method: req.method,
        path: req.url,
        // The body may differ from the client's (a version the front rewrote): its own length.
        headers: { ...req.headers, host: this.target.host, 'content-length': String(body.length) },
        signal,
      });
      upstream.once('response', resolve);
      upstream.once('error', reject);
      upstream.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
