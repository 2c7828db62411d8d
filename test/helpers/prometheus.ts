/** One sample of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/g;

/** Parses an exposition strictly: a line that is neither a comment nor a sample fails. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    let consumed = 0;
    for (const label of body.matchAll(LABEL)) {
      labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed += label[0].length;
    }
    if (consumed !== body.length) throw new Error(`malformed labels: ${line}`);
    // Prometheus reads values with Go's ParseFloat: NaN and Inf in any case (prom-client writes `Nan`).
    const raw = match[3]!;
    const value = /^nan$/i.test(raw) ? NaN : /^[+-]?inf$/i.test(raw) ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
    if (Number.isNaN(value) && !/^nan$/i.test(raw)) throw new Error(`malformed value: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** The value of the sample with exactly these labels (0 when absent: a counter not yet incremented). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels);
  const found = samples.find((s) => s.name === name
    && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}
