import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/**
 * `GET /metrics` in Prometheus' text format on a port of its own, for the services that otherwise
 * speak only NATS. Port 0 takes a free one (tests run several instances side by side).
 */
export async function startMetricsServer(
  registry: Registry,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"Not found."}');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ detail: error instanceof Error ? error.message : 'metrics failed' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // Never the reason a process stays up after its graceful stop.
  server.unref();
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
