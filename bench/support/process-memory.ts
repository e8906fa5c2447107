import { parsePrometheusText } from '../../test/support/prometheus-text';

/** A service's memory as prom-client's default metrics give it on its /metrics, in MB. */
export interface ProcessMemory {
  rss_mb: number;
  /** V8's heap: what live and not yet collected objects take, and what V8 holds for it. */
  heap_used_mb: number;
  heap_total_mb: number;
  /** Memory outside V8's heap that JavaScript objects own (Buffers, ArrayBuffers). */
  external_mb: number;
  /** The rest of the RSS: code, stacks, the allocator's and libuv's own, pages not given back. */
  native_mb: number;
}

const MB = 1024 * 1024;
const round = (value: number) => Number(value.toFixed(1));

export async function processMemory(metricsUrl: string): Promise<ProcessMemory> {
  const scrape = parsePrometheusText(await (await fetch(metricsUrl)).text());
  const value = (name: string) => {
    const sample = scrape.samples.find((s) => s.name === name);
    if (sample === undefined) throw new Error(`${metricsUrl} has no ${name}`);
    return sample.value / MB;
  };
  const rss = value('process_resident_memory_bytes');
  const heapTotal = value('nodejs_heap_size_total_bytes');
  const external = value('nodejs_external_memory_bytes');
  return {
    rss_mb: round(rss),
    heap_used_mb: round(value('nodejs_heap_size_used_bytes')),
    heap_total_mb: round(heapTotal),
    external_mb: round(external),
    native_mb: round(rss - heapTotal - external),
  };
}
