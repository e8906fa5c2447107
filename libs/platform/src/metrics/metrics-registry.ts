import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The Prometheus registry of one process: Node's own process metrics plus whatever the app and its
 * libraries register. Every series carries the app's name as the `app` label.
 */
export function createMetricsRegistry(app: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: registry });
  return registry;
}
