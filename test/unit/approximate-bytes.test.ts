import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { approximateBytes } from '../../src/cache/approximate-bytes';

// approximate-bytes.ts counts what a cache holds; checked against V8's own heap: the heap
// grown by 20,000 values of each shape a cache keeps, after full collections, against the
// estimate of those values (each distinct, as a cache's are). Measured in a process of its
// own (a jest worker's heap holds other files' garbage), over the built module.

const BUILT = path.join(__dirname, '../../dist/src/cache/approximate-bytes.js');

function heapGrowth(make: (i: number) => unknown, count: number): { measured: number; estimated: number } {
  if (!fs.existsSync(BUILT)) throw new Error(`${BUILT} is missing: run npm run build first`);
  const script = `
    const { approximateBytes } = require(${JSON.stringify(BUILT)});
    const text = ${text.toString()};
    const make = ${make.toString()};
    gc(); gc();
    const before = process.memoryUsage().heapUsed;
    const kept = new Array(${count});
    for (let i = 0; i < ${count}; i++) kept[i] = make(i);
    gc(); gc();
    const measured = process.memoryUsage().heapUsed - before - 8 * ${count};
    const estimated = kept.reduce((sum, value) => sum + approximateBytes(value), 0);
    process.stdout.write(JSON.stringify({ measured, estimated }));`;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) as { measured: number; estimated: number };
}

/** A flat string, as a database driver gives (padEnd's own result is a rope of parts). */
const text = (i: number, length: number) => Buffer.from(`${i}-`.padEnd(length, 'abcdefghij'.charAt(i % 10))).toString('latin1');

const SHAPES: Array<[string, (i: number) => unknown]> = [
  ['an alert row', (i) => ({
    id: i, number: i % 500, repoId: i % 97, advisoryId: i % 211, state: i % 3 === 0 ? 'dismissed' : 'open', version: i,
    manifestPath: text(i, 24), packageName: text(i, 18), ecosystem: 'npm', scope: 'runtime', relationship: 'direct',
    createdAt: text(i, 24), updatedAt: text(i + 1, 24),
    dismissedAt: null, dismissedReason: null, dismissedComment: i % 3 === 0 ? text(i, 60) : null, fixedAt: null, autoDismissedAt: null,
  })],
  ['an advisory with vulnerabilities', (i) => ({
    id: i, ghsaId: `GHSA-${text(i, 14)}`, summary: text(i, 80), description: text(i, 600), severity: 'high', cvssScore: 7.5 + (i % 10) / 10,
    identifiers: [{ type: 'GHSA', value: text(i, 19) }, { type: 'CVE', value: text(i, 14) }], cwes: [{ cweId: 'CWE-79', name: text(i, 40) }],
    vulnerabilities: [{ ecosystem: 'npm', name: text(i, 20), range: `< ${i % 9}.0.0`, patched: `${i % 9}.0.0` }],
  })],
  ['package rows by name', (i) => [{ id: i, ecosystem: 'pip', packageKey: text(i, 22), advisoryId: i * 3 }, { id: i + 1, ecosystem: 'pip', packageKey: text(i, 22), advisoryId: i * 3 + 1 }]],
  ['a set of ids', (i) => new Set([i, i + 1, i + 2])],
  ['a map of small records', (i) => new Map([[i, { login: text(i, 12), id: i }], [i + 1, { login: text(i, 12), id: i + 1 }]])],
];

it.each(SHAPES)('counts %s within a factor of 1.6 of the heap it holds', (_name, make) => {
  const { measured, estimated } = heapGrowth(make, 20_000);
  expect(measured).toBeGreaterThan(0);
  expect(estimated / measured).toBeGreaterThan(1 / 1.6);
  expect(estimated / measured).toBeLessThan(1.6);
});

it('counts a buffer by its length, a string by its characters, and stops at depth', () => {
  expect(approximateBytes(Buffer.alloc(10_000))).toBeGreaterThanOrEqual(10_000);
  expect(approximateBytes('x'.repeat(1000)) - approximateBytes('')).toBe(1000);
  let deep: unknown = 'leaf';
  for (let i = 0; i < 100; i++) deep = { deep };
  expect(approximateBytes(deep)).toBeLessThan(1000);
});
