import { parsePrometheusText } from '../../test/support/prometheus-text';

/** The `_sum` and `_count` of a histogram on a service's /metrics, over every label set. */
export async function histogramTotals(
  metricsUrl: string,
  name: string,
): Promise<{ sum: number; count: number }> {
  const scrape = parsePrometheusText(await (await fetch(metricsUrl)).text());
  const total = (suffix: string) =>
    scrape.samples
      .filter((sample) => sample.name === `${name}${suffix}`)
      .reduce((sum, sample) => sum + sample.value, 0);
  return { sum: total('_sum'), count: total('_count') };
}
