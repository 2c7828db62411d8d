import fs from 'node:fs';
import path from 'node:path';

// OSV advisories of the public advisory database's shape (issue 20, "Benchmark"), generated:
// the repository's layout `advisories/github-reviewed/YYYY/MM/ID/ID.json`, long markdown
// `details`, 1–3 affected packages across the nine ecosystems, CVSS v3 vectors (some v4 as well),
// CVE aliases, CWEs, references, GitHub's database_specific. Deterministic per index; written
// one file at a time.

const GHSA_ALPHABET = '23456789cfghjmpqrvwx';
const ECOSYSTEMS: ReadonlyArray<readonly [string, (n: number) => string]> = [
  ['npm', (n) => (n % 3 === 0 ? `@scope-${n % 97}/pkg-${n}` : `pkg-${n}`)],
  ['PyPI', (n) => `Py_Pkg.${n}`],
  ['Maven', (n) => `org.example${n % 89}:artifact-${n}`],
  ['NuGet', (n) => `Example.Package${n}`],
  ['RubyGems', (n) => `gem-${n}`],
  ['Go', (n) => `github.com/example${n % 83}/module-${n}`],
  ['crates.io', (n) => `crate_${n}`],
  ['Packagist', (n) => `vendor${n % 79}/package-${n}`],
  ['Pub', (n) => `pub_package_${n}`],
];
const CWES = ['CWE-79', 'CWE-89', 'CWE-22', 'CWE-400', 'CWE-502', 'CWE-787', 'CWE-20', 'CWE-1321', 'CWE-918', 'CWE-352'];
const SEVERITIES = ['LOW', 'MODERATE', 'HIGH', 'CRITICAL'];

/** A small deterministic generator (mulberry32), so every run writes the same files. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Index × an odd multiplier not divisible by 5 is a bijection modulo 20^12: distinct ids, scattered like real ones.
const ID_SPACE = 20n ** 12n;
function ghsaId(index: number): string {
  let n = (BigInt(index) * 2654435761n) % ID_SPACE;
  const chars: string[] = [];
  for (let i = 0; i < 12; i++) {
    chars.push(GHSA_ALPHABET[Number(n % 20n)]!);
    n /= 20n;
  }
  return `GHSA-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function cvssV3(rand: () => number): string {
  const m = (name: string, values: string[]) => `${name}:${pick(rand, values)}`;
  return ['CVSS:3.1', m('AV', ['N', 'A', 'L', 'P']), m('AC', ['L', 'H']), m('PR', ['N', 'L', 'H']), m('UI', ['N', 'R']), m('S', ['U', 'C']), m('C', ['N', 'L', 'H']), m('I', ['N', 'L', 'H']), m('A', ['N', 'L', 'H'])].join('/');
}

function cvssV4(rand: () => number): string {
  const m = (name: string, values: string[]) => `${name}:${pick(rand, values)}`;
  return ['CVSS:4.0', m('AV', ['N', 'A', 'L', 'P']), m('AC', ['L', 'H']), m('AT', ['N', 'P']), m('PR', ['N', 'L', 'H']), m('UI', ['N', 'P', 'A']),
    m('VC', ['N', 'L', 'H']), m('VI', ['N', 'L', 'H']), m('VA', ['N', 'L', 'H']), m('SC', ['N', 'L', 'H']), m('SI', ['N', 'L', 'H']), m('SA', ['N', 'L', 'H'])].join('/');
}

/** Markdown of the length real advisories have (1–3 KB): impact, patches, workarounds, a proof of concept. */
function details(rand: () => number, name: string): string {
  const paragraph = `The \`${name}\` package does not validate the input it receives before passing it on to the parser, which lets an attacker who controls the request craft a payload that is interpreted with the privileges of the application. Depending on the configuration this leads to information disclosure, denial of service or the execution of arbitrary code.`;
  const sections = [`### Impact\n${paragraph}`, `### Patches\nThe problem has been patched; users should upgrade to the fixed release listed below.`,
    `### Workarounds\nIf upgrading is not possible, reject requests whose body contains nested structures deeper than 32 levels.`,
    `### Proof of concept\n\`\`\`js\nconst payload = ${JSON.stringify({ a: { b: { c: 'x'.repeat(40) } } })};\nrequire('${name}').parse(payload);\n\`\`\``,
    '### References\n- the maintainers\' security policy\n- the fixing commit and its tests'];
  const repeats = 1 + Math.floor(rand() * 6);
  return [...sections, ...Array.from({ length: repeats }, (_, i) => `#### Details ${i + 1}\n${paragraph}`)].join('\n\n');
}

function affected(rand: () => number, index: number, part: number) {
  const [ecosystem, nameOf] = ECOSYSTEMS[(index + part * 4) % ECOSYSTEMS.length]!;
  const name = nameOf(index * 3 + part);
  const major = Math.floor(rand() * 8);
  const minor = Math.floor(rand() * 20);
  const fixed = `${major}.${minor}.${1 + Math.floor(rand() * 9)}`;
  const introduced = rand() < 0.6 ? '0' : `${major}.${minor}.0`;
  const unfixed = rand() < 0.1;
  const events = unfixed ? [{ introduced }, { last_affected: fixed }] : [{ introduced }, { fixed }];
  return {
    package: { ecosystem, name },
    ranges: [{ type: 'ECOSYSTEM', events }],
    ...(unfixed ? { database_specific: { last_known_affected_version_range: `<= ${fixed}` } } : {}),
  };
}

/** The OSV document of advisory `index` (the same every run). */
export function osvDocument(index: number): { id: string; published: string } & Record<string, unknown> {
  const rand = random(index + 1);
  const id = ghsaId(index);
  const name = ECOSYSTEMS[index % ECOSYSTEMS.length]![1](index * 3);
  const published = new Date(Date.UTC(2018, 0, 1) + index * 3_600_000 * 3).toISOString().replace('.000Z', 'Z');
  const modified = new Date(Date.parse(published) + 86_400_000 * (1 + Math.floor(rand() * 300))).toISOString().replace('.000Z', 'Z');
  const cve = `CVE-${published.slice(0, 4)}-${10000 + index}`;
  const severity = [{ type: 'CVSS_V3', score: cvssV3(rand) }, ...(rand() < 0.3 ? [{ type: 'CVSS_V4', score: cvssV4(rand) }] : [])];
  const packages = 1 + Math.floor(rand() * 3);
  const doc = {
    schema_version: '1.4.0',
    id,
    modified,
    published,
    aliases: [cve],
    summary: `Improper input validation in ${name}`,
    details: details(rand, name),
    severity,
    affected: Array.from({ length: packages }, (_, part) => affected(rand, index, part)),
    references: [
      { type: 'ADVISORY', url: `https://nvd.nist.gov/vuln/detail/${cve}` },
      { type: 'WEB', url: `https://github.com/example/${index}/security/advisories/${id}` },
      { type: 'WEB', url: `https://github.com/example/${index}/commit/${(index * 2654435761 >>> 0).toString(16).padStart(8, '0')}` },
      { type: 'PACKAGE', url: `https://github.com/example/${index}` },
    ],
    database_specific: {
      cwe_ids: [pick(rand, CWES)],
      severity: pick(rand, SEVERITIES),
      github_reviewed: true,
      github_reviewed_at: modified,
      nvd_published_at: published,
    },
  };
  return doc;
}

export function osvAdvisory(index: number): { id: string; published: string; json: string } {
  const doc = osvDocument(index);
  return { id: doc.id, published: doc.published, json: JSON.stringify(doc, null, 2) };
}

/** Writes `count` advisories under `root` in the repository's layout; answers the bytes written. */
export function writeOsvTree(root: string, count: number): number {
  let bytes = 0;
  for (let index = 0; index < count; index++) {
    const { id, published, json } = osvAdvisory(index);
    const folder = path.join(root, 'advisories', 'github-reviewed', published.slice(0, 4), published.slice(5, 7), id);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `${id}.json`), json);
    bytes += json.length;
  }
  return bytes;
}
