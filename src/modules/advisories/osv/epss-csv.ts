import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

// The EPSS scores file as FIRST publishes it (epss_scores-YYYY-MM-DD.csv[.gz]):
//   #model_version:v2025.03.14,score_date:2025-06-01T12:55:00Z
//   cve,epss,percentile
//   CVE-1999-0001,0.0137,0.79756

/** One CVE's scores: `epss` is the probability (0–1), `percentile` its rank among all CVEs (0–1). */
export interface EpssScore {
  cve: string;
  epss: number;
  percentile: number;
}

export interface EpssLineError {
  line: number;
  reason: string;
}

export type EpssItem = { score: EpssScore } | { error: EpssLineError } | { model: { version: string | null; scoreDate: string | null } };

const CVE = /^CVE-\d{4}-\d{4,}$/;

function probability(text: string | undefined): number | null {
  if (text === undefined || !/^\d+(\.\d+)?(e-?\d+)?$/i.test(text.trim())) return null;
  const value = Number(text);
  return value >= 0 && value <= 1 ? value : null;
}

function scoreLine(text: string, line: number): EpssItem {
  const fields = text.split(',');
  const [cve, epss, percentile] = fields.map((field) => field.trim());
  if (fields.length !== 3) return { error: { line, reason: `expected 3 fields (cve,epss,percentile), got ${fields.length}` } };
  if (!cve || !CVE.test(cve)) return { error: { line, reason: `"${cve}" is not a CVE id` } };
  const score = probability(epss);
  if (score === null) return { error: { line, reason: `epss "${epss}" is not a number from 0 to 1` } };
  const rank = probability(percentile);
  if (rank === null) return { error: { line, reason: `percentile "${percentile}" is not a number from 0 to 1` } };
  return { score: { cve, epss: score, percentile: rank } };
}

function modelLine(text: string): EpssItem {
  const fields = new Map(text.slice(1).split(',').map((pair) => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)] as const));
  return { model: { version: fields.get('model_version') ?? null, scoreDate: fields.get('score_date') ?? null } };
}

/**
 * Reads an EPSS CSV stream line by line (memory does not grow with the file): the leading
 * `#model_version…` comment as `model`, then one `score` per CVE; a bad line yields its `error`
 * and reading goes on. The `cve,epss,percentile` header is required before the first score.
 */
export async function* readEpssLines(input: Readable): AsyncGenerator<EpssItem> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  let sawHeader = false;
  for await (const raw of lines) {
    line += 1;
    const text = raw.trim();
    if (text === '') continue;
    if (text.startsWith('#')) {
      if (!sawHeader) yield modelLine(text);
      continue;
    }
    if (!sawHeader) {
      sawHeader = true;
      if (text.toLowerCase().replace(/\s/g, '') === 'cve,epss,percentile') continue;
      yield { error: { line, reason: 'expected the header cve,epss,percentile' } };
    }
    yield scoreLine(text, line);
  }
}

/** The EPSS file at `path`, plain or gzip (`.gz`, or gzip's magic bytes whatever the name). */
export async function* readEpssFile(path: string): AsyncGenerator<EpssItem> {
  const head = await firstBytes(path, 2);
  const isGzip = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
  const file = createReadStream(path);
  // pipeline (not pipe) so a read error of the file also fails the gunzip stream the lines come from.
  yield* readEpssLines(isGzip ? pipeline(file, createGunzip(), () => undefined) : file);
}

async function firstBytes(path: string, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(path, { start: 0, end: count - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
