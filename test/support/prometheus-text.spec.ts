import { parsePrometheusText, sampleValue } from './prometheus-text';

describe('parsePrometheusText', () => {
  const text = [
    '# HELP http_request_duration_seconds Time to answer',
    '# TYPE http_request_duration_seconds histogram',
    'http_request_duration_seconds_bucket{le="0.1",route="/health",app="gateway"} 3',
    'http_request_duration_seconds_bucket{le="+Inf",route="/health",app="gateway"} 4',
    'http_request_duration_seconds_count{route="/health",app="gateway"} 4',
    '# TYPE outbox_backlog gauge',
    'outbox_backlog{app="order-service"} NaN',
    'nodejs_eventloop_lag_mean_seconds{app="vsphere-adapter"} Nan',
    'odd{text="a \\"quoted\\", comma"} 1.5e3',
    '',
  ].join('\n');

  it('reads labelled histogram samples, NaN, escapes and types', () => {
    const scrape = parsePrometheusText(text);
    expect(scrape.types).toEqual({ http_request_duration_seconds: 'histogram', outbox_backlog: 'gauge' });
    expect(sampleValue(scrape, 'http_request_duration_seconds_count', { route: '/health' })).toBe(4);
    expect(sampleValue(scrape, 'http_request_duration_seconds_bucket', { le: '+Inf' })).toBe(4);
    expect(sampleValue(scrape, 'outbox_backlog')).toBeNaN();
    // prom-client's spelling, before the event loop has been sampled.
    expect(sampleValue(scrape, 'nodejs_eventloop_lag_mean_seconds')).toBeNaN();
    expect(sampleValue(scrape, 'odd', { text: 'a "quoted", comma' })).toBe(1500);
  });

  it('refuses a malformed line rather than skipping it', () => {
    expect(() => parsePrometheusText('metric{route="/x" 1')).toThrow(/malformed/);
    expect(() => parsePrometheusText('metric one')).toThrow(/malformed value/);
  });
});
