import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { Pool } from 'undici';
import { observeVcenterCalls } from './vcenter-call-metrics';

describe('observeVcenterCalls', () => {
  it('times each HTTP request made through undici, including the time the server takes', async () => {
    const server = createServer((_request, response) => {
      setTimeout(() => response.end('{"value":"ok"}'), 120);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const registry = new Registry();
    const seconds = observeVcenterCalls(registry);
    expect(observeVcenterCalls(registry)).toBe(seconds);
    const pool = new Pool(`http://127.0.0.1:${port}`);
    try {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await pool.request({ method, path: '/api/session' });
        await answer.body.text();
      }
    } finally {
      await pool.close();
      server.close();
    }
    const values = (await seconds.get()).values;
    const count = (method: string) =>
      values.find((v) => v.metricName?.endsWith('_count') && v.labels.method === method)?.value;
    const sum = values.filter((v) => v.metricName?.endsWith('_sum')).reduce((total, v) => total + v.value, 0);
    expect([count('GET'), count('POST')]).toEqual([1, 1]);
    expect(sum).toBeGreaterThanOrEqual(0.23);
  });
});
