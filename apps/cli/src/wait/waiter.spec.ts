import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Settings } from '../config/settings';
import { ApiClient } from '../http/api-client';
import { DebugLog } from '../http/debug-log';
import { Waiter, type WaitTarget } from './waiter';

const UUID = '6d3c1f0e-8a3b-4c1d-9e2f-0a1b2c3d4e5f';

/** A gateway stand-in over real HTTP: the order GET and `/api/events`, scripted per test. */
class FakeGateway {
  server!: Server;
  base = '';
  order: Record<string, unknown> = { uuid: UUID, state: 'executing' };
  gets = 0;
  streams: { lastEventId?: string; query: string }[] = [];
  onStream: (response: ServerResponse, index: number) => void = () => undefined;
  streamStatus = 200;

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url!, this.base);
    if (url.pathname === '/api/events') {
      const index =
        this.streams.push({ lastEventId: request.headers['last-event-id'] as string, query: url.search }) - 1;
      if (this.streamStatus !== 200) {
        response
          .writeHead(this.streamStatus, { 'Content-Type': 'application/json' })
          .end('{"detail":"Not found."}');
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write(': connected\n\n');
      this.onStream(response, index);
      return;
    }
    this.gets++;
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(this.order));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function event(id: number, data: object, type = 'OrderStateChanged'): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

const target: WaitTarget = {
  label: `order ${UUID}`,
  path: `/api/marketplace-orders/${UUID}/`,
  uuid: UUID,
  streamQuery: { order_uuid: UUID, type: 'OrderStateChanged' },
  eventType: 'OrderStateChanged',
};
const done = (object: Record<string, unknown>) => object.state === 'done';

describe('Waiter: SSE first, one GET, resume, polling fallback', () => {
  let gateway: FakeGateway;
  let client: ApiClient;
  beforeEach(async () => {
    gateway = new FakeGateway();
    await gateway.start();
    client = new ApiClient(
      { apiUrl: gateway.base, maxRetries: 0, httpTimeoutMs: 5000 } as Settings,
      new DebugLog(false),
    );
  });
  afterEach(() => gateway.stop());

  const waiter = () => new Waiter(client, new DebugLog(false));

  it('returns at once when the condition already holds at the first GET', async () => {
    gateway.order = { uuid: UUID, state: 'done' };
    const result = await waiter().wait(target, { timeoutMs: 5000, intervalMs: 1000, settled: done });
    expect(result).toEqual({ kind: 'settled', object: { uuid: UUID, state: 'done' } });
    expect(gateway.gets).toBe(1);
  });

  it("meets the condition on an event's data, with one GET and no polling while the stream is up", async () => {
    gateway.onStream = (response) => {
      setTimeout(() => response.write(event(7, { uuid: 'other', state: 'done' })), 100);
      setTimeout(() => response.write(event(8, { uuid: UUID, state: 'pending-provider' })), 150);
      setTimeout(() => response.write(event(9, { uuid: UUID, state: 'done', resource_uuid: 'vm' })), 1500);
    };
    const result = await waiter().wait(target, { timeoutMs: 5000, intervalMs: 100, settled: done });
    expect(result).toEqual({ kind: 'settled', object: { uuid: UUID, state: 'done', resource_uuid: 'vm' } });
    expect(gateway.gets).toBe(1);
    expect(gateway.streams).toHaveLength(1);
    expect(gateway.streams[0].query).toBe(`?order_uuid=${UUID}&type=OrderStateChanged`);
  });

  it('resumes a dropped stream with Last-Event-ID and takes the replayed event', async () => {
    gateway.onStream = (response, index) => {
      if (index === 0) {
        response.write(event(41, { uuid: UUID, state: 'executing' }));
        setTimeout(() => response.destroy(), 50);
      } else {
        response.write(event(42, { uuid: UUID, state: 'done' }));
      }
    };
    const result = await waiter().wait(target, { timeoutMs: 5000, intervalMs: 1000, settled: done });
    expect(result.kind).toBe('settled');
    expect(gateway.streams.map((s) => s.lastEventId)).toEqual([undefined, '41']);
    expect(gateway.gets).toBe(1);
  });

  it('polls at the interval when the stream cannot be opened, and says so under --debug', async () => {
    gateway.streamStatus = 404;
    setTimeout(() => (gateway.order = { uuid: UUID, state: 'done' }), 450);
    const debug: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      debug.push(String(chunk));
      return true;
    });
    const started = Date.now();
    try {
      const result = await new Waiter(client, new DebugLog(true)).wait(target, {
        timeoutMs: 5000,
        intervalMs: 200,
        settled: done,
      });
      expect(result.kind).toBe('settled');
    } finally {
      stderr.mockRestore();
    }
    expect(gateway.gets).toBeGreaterThanOrEqual(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(debug).toContainEqual(
      expect.stringMatching(/^debug: event stream cannot be opened: .*falling back to polling\n$/),
    );
    expect(debug).toContain(`debug: polling order ${UUID} every 0.2 s\n`);
  });

  it('says nothing of the fallback without --debug', async () => {
    gateway.streamStatus = 404;
    gateway.order = { uuid: UUID, state: 'done' };
    const stderr = jest.spyOn(process.stderr, 'write');
    try {
      const result = await waiter().wait(target, { timeoutMs: 5000, intervalMs: 200, settled: done });
      expect(result.kind).toBe('settled');
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  it('times out with the last state seen, on the stream as when polling', async () => {
    const onStream = await waiter().wait(target, { timeoutMs: 300, intervalMs: 100, settled: done });
    expect(onStream).toEqual({ kind: 'timeout', object: { uuid: UUID, state: 'executing' } });
    gateway.streamStatus = 404;
    const polling = await waiter().wait(target, { timeoutMs: 300, intervalMs: 100, settled: done });
    expect(polling.kind).toBe('timeout');
  });
});

describe('Waiter: a stream the gateway cannot serve for a moment', () => {
  it('opens it again after a 503 (with backoff) instead of polling', async () => {
    const gateway = new FakeGateway();
    await gateway.start();
    try {
      const client = new ApiClient(
        { apiUrl: gateway.base, maxRetries: 2, httpTimeoutMs: 5000 } as Settings,
        new DebugLog(false),
      );
      gateway.streamStatus = 503;
      setTimeout(() => (gateway.streamStatus = 200), 100);
      gateway.onStream = (response) => response.write(event(3, { uuid: UUID, state: 'done' }));
      const result = await new Waiter(client, new DebugLog(false)).wait(target, {
        timeoutMs: 5000,
        intervalMs: 60_000,
        settled: done,
      });
      expect(result.kind).toBe('settled');
      expect(gateway.streams.length).toBeGreaterThanOrEqual(2);
      expect(gateway.gets).toBe(1);
    } finally {
      await gateway.stop();
    }
  });
});
