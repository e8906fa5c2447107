/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4), for tests that scrape
 * `/metrics`. Written here because the one npm parser of the format (parse-prometheus-text-format
 * 1.1.1) drops the labels of every labelled histogram, the very series these tests read.
 * It throws on any line that is not a comment, a blank or a well-formed sample.
 */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PrometheusScrape {
  samples: PrometheusSample[];
  /** `# TYPE` of each family. */
  types: Record<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`malformed labels in: ${line}`);
    labels[match[1]] = match[2].replace(/\\n/g, '\n').replace(/\\(["\\])/g, '$1');
  }
  return labels;
}

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Prometheus reads NaN in any case (Go's ParseFloat), and prom-client writes `Nan`.
  if (text.toLowerCase() === 'nan') return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`malformed value in: ${line}`);
  return value;
}

export function parsePrometheusText(text: string): PrometheusScrape {
  const scrape: PrometheusScrape = { samples: [], types: {} };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) scrape.types[type[1]] = type[2];
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`malformed sample line: ${line}`);
    scrape.samples.push({
      name: match[1],
      labels: match[2] ? parseLabels(match[2], line) : {},
      value: parseValue(match[3], line),
    });
  }
  return scrape;
}

/** The value of the one sample named `name` whose labels include `labels`; throws if none. */
export function sampleValue(
  scrape: PrometheusScrape,
  name: string,
  labels: Record<string, string> = {},
): number {
  const found = scrape.samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (!found) throw new Error(`no sample ${name} with ${JSON.stringify(labels)}`);
  return found.value;
}
