import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { createMetricsRegistry } from '@app/platform/metrics';
import type { HttpRequest, HttpResponse } from '../rest/http-types';
import { ServiceRequester } from '../services/service-requester';

/**
 * The gateway's Prometheus series: HTTP requests and latencies per route (the route's pattern, not
 * the concrete path, so uuids do not explode the label set) and the state of its NATS link.
 */
@Injectable()
export class GatewayMetrics {
  readonly registry: Registry = createMetricsRegistry('gateway');
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly seconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(requester: ServiceRequester) {
    new Gauge({
      name: 'nats_connected',
      help: "1 while the gateway's NATS connection is up",
      registers: [this.registry],
      collect() {
        this.set(requester.natsConnected ? 1 : 0);
      },
    });
  }

  /** Express middleware: times every request and counts it when its answer is finished. */
  readonly middleware = (request: HttpRequest, response: HttpResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const routed = (request as HttpRequest & { route?: { path?: unknown } }).route?.path;
      const route = typeof routed === 'string' ? routed : 'unmatched';
      const method = request.method ?? 'GET';
      this.requests.inc({ method, route, status: String(response.statusCode) });
      this.seconds.observe({ method, route }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
