import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readEpssFile, type EpssItem } from '../../src/modules/advisories/osv';

// The published form: epss_scores-YYYY-MM-DD.csv.gz from FIRST (https://www.first.org/epss/data_stats).
const PUBLISHED = [
  '#model_version:v2025.03.14,score_date:2025-06-01T12:55:00Z',
  'cve,epss,percentile',
  'CVE-1999-0001,0.01372,0.79756',
  'CVE-2021-44228,0.94358,0.99953',
  'CVE-2024-0001,1.2e-4,0.0123',
  '',
].join('\n');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-epss-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function readAll(file: string): Promise<EpssItem[]> {
  const items: EpssItem[] = [];
  for await (const item of readEpssFile(file)) items.push(item);
  return items;
}

const EXPECTED: EpssItem[] = [
  { model: { version: 'v2025.03.14', scoreDate: '2025-06-01T12:55:00Z' } },
  { score: { cve: 'CVE-1999-0001', epss: 0.01372, percentile: 0.79756 } },
  { score: { cve: 'CVE-2021-44228', epss: 0.94358, percentile: 0.99953 } },
  { score: { cve: 'CVE-2024-0001', epss: 0.00012, percentile: 0.0123 } },
];

describe('readEpssFile', () => {
  it('reads the published CSV: the model line, then one score per CVE', async () => {
    const file = path.join(dir, 'epss_scores-2025-06-01.csv');
    fs.writeFileSync(file, PUBLISHED);
    expect(await readAll(file)).toEqual(EXPECTED);
  });

  it('reads the gzip the scores are published as, whatever its name', async () => {
    const gz = path.join(dir, 'epss_scores-2025-06-01.csv.gz');
    fs.writeFileSync(gz, gzipSync(PUBLISHED));
    const misnamed = path.join(dir, 'scores.csv');
    fs.writeFileSync(misnamed, gzipSync(PUBLISHED.replace(/\n/g, '\r\n')));
    expect(await readAll(gz)).toEqual(EXPECTED);
    expect(await readAll(misnamed)).toEqual(EXPECTED);
  });

  it('reports each bad line by number and reads on', async () => {
    const file = path.join(dir, 'bad.csv');
    const lines = ['cve,epss,percentile', 'CVE-2024-0001,0.5', 'GHSA-1,0.1,0.2', 'CVE-2024-0002,1.5,0.2', 'CVE-2024-0003,0.1,high', 'CVE-2024-0004,0.25,0.5'];
    fs.writeFileSync(file, lines.join('\n'));
    expect(await readAll(file)).toEqual([
      { error: { line: 2, reason: 'expected 3 fields (cve,epss,percentile), got 2' } },
      { error: { line: 3, reason: '"GHSA-1" is not a CVE id' } },
      { error: { line: 4, reason: 'epss "1.5" is not a number from 0 to 1' } },
      { error: { line: 5, reason: 'percentile "high" is not a number from 0 to 1' } },
      { score: { cve: 'CVE-2024-0004', epss: 0.25, percentile: 0.5 } },
    ]);
  });

  it('says so when the header is missing, and still reads the scores', async () => {
    const file = path.join(dir, 'headless.csv');
    fs.writeFileSync(file, 'CVE-2024-0005,0.3,0.4\n');
    expect(await readAll(file)).toEqual([
      { error: { line: 1, reason: 'expected the header cve,epss,percentile' } },
      { score: { cve: 'CVE-2024-0005', epss: 0.3, percentile: 0.4 } },
    ]);
  });

  it('rejects a truncated gzip instead of hanging', async () => {
    const file = path.join(dir, 'cut.csv.gz');
    fs.writeFileSync(file, gzipSync(PUBLISHED.repeat(50)).subarray(0, 60));
    await expect(readAll(file)).rejects.toThrow();
  });

  it('rejects a missing file', async () => {
    await expect(readAll(path.join(dir, 'missing.csv'))).rejects.toThrow(/ENOENT/);
  });
});
