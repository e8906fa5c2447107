import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { Histogram, type Registry } from 'prom-client';

const METRIC = 'vsphere_vcenter_request_seconds';

interface UndiciRequestMessage {
  request: { method?: string; origin?: string | URL };
}

/**
 * Times every HTTP request the adapter makes (all of them go to vCenters: vim25 over `/sdk`, the
 * Automation API over `/api`), from undici's diagnostics channels: no client code is touched, and
 * a request's time includes vCenter's own work (a deploy answered when the clone is done, a task
 * wait held open). What the orders bench subtracts to find the time spent outside vCenter.
 */
export function observeVcenterCalls(registry: Registry): Histogram<'method'> {
  const existing = registry.getSingleMetric(METRIC);
  if (existing !== undefined) return existing as Histogram<'method'>;
  const seconds = new Histogram({
    name: METRIC,
    help: 'HTTP requests to vCenter (SOAP and REST), from sending to the whole answer',
    labelNames: ['method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const started = new WeakMap<object, number>();
  diagnosticsChannel.subscribe('undici:request:create', (message) => {
    started.set((message as UndiciRequestMessage).request, performance.now());
  });
  const finish = (message: unknown) => {
    const { request } = message as UndiciRequestMessage;
    const t0 = started.get(request);
    if (t0 === undefined) return;
    started.delete(request);
    seconds.observe({ method: request.method ?? 'GET' }, (performance.now() - t0) / 1000);
  };
  diagnosticsChannel.subscribe('undici:request:trailers', finish);
  diagnosticsChannel.subscribe('undici:request:error', finish);
  return seconds;
}
