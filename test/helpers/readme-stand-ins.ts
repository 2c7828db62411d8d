import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OSV_FIXTURES, fixtureFiles, readFixture, writeEpssFile, writeZip } from './advisory-import';

// What the README fetches from the internet, served from committed data instead, so its
// commands run as written without a network: small programs named `curl`, `git` and `npx`,
// first on the PATH, each taking only the README's downloads and handing every other call to
// the real program. The real `curl` also reports each answer's status (on standard error,
// marked), so a test can hold every request of the README to its documented outcome.

const ROOT = path.join(__dirname, '..', '..');
const SBOM_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'sbom', 'orgsec.cdx.json');
const ADVISORY_DATABASE_URL = 'https://github.com/github/advisory-database.git';
const STATUS_MARK = '<<readme http status ';

/** A download the README names, and the committed data standing in for it. */
interface Download { url: string; file: string }

export interface StandIns {
  /** Put first on the PATH. */
  bin: string;
}

function which(program: string): string {
  const found = spawnSync('bash', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${program} is not installed`);
  return found;
}

function script(file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o755 });
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

const REAL_NPM_ADVISORY = 'GHSA-3fvg-4v2m-98jf';

/** The real npm advisory made over for another package and range: test data. */
function madeFromRealAdvisory(id: string, name: string, introduced: string, fixed: string): string {
  const real = readFixture(REAL_NPM_ADVISORY);
  const [affected] = real.affected as Array<Record<string, unknown>>;
  return JSON.stringify({
    ...real, id, aliases: [], references: [], summary: `${name} ${introduced} to ${fixed} (a test advisory)`,
    details: `Made from ${REAL_NPM_ADVISORY} for the README's walk-through test.`,
    affected: [{ ...affected, package: { ecosystem: 'npm', name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced }, { fixed }] }] }],
  });
}

/**
 * OSV's npm/all.zip as the suite has it. The committed real npm advisory (jsrsasign) affects
 * nothing in orgsec's tree, so beside it are three made from it for packages orgsec has
 * (test data, named ORGSEC-TEST-…): two whose ranges hold orgsec's versions, one whose range does not.
 */
export async function writeNpmAdvisoriesZip(file: string): Promise<void> {
  await writeZip(file, [
    [`${REAL_NPM_ADVISORY}.json`, JSON.stringify(readFixture(REAL_NPM_ADVISORY))],
    // orgsec has express 5.3.0 (direct), debug 4.3.4 and 4.4.3 (transitive).
    ['ORGSEC-TEST-1.json', madeFromRealAdvisory('ORGSEC-TEST-1', 'express', '5.0.0', '5.99.0')],
    ['ORGSEC-TEST-2.json', madeFromRealAdvisory('ORGSEC-TEST-2', 'debug', '4.3.0', '4.3.5')],
    ['ORGSEC-TEST-3.json', madeFromRealAdvisory('ORGSEC-TEST-3', 'express', '0', '4.21.2')],
  ]);
}

/** The committed OSV records of one ecosystem, as OSV's `<Ecosystem>/all.zip` holds them. */
async function ecosystemZip(file: string, ecosystem: string): Promise<void> {
  const records = fixtureFiles().map((f) => fs.readFileSync(f, 'utf8')).filter((text) => (JSON.parse(text).affected ?? []).some((a: { package?: { ecosystem?: string } }) => a.package?.ecosystem === ecosystem));
  if (records.length === 0) throw new Error(`no committed OSV record of ${ecosystem}`);
  await writeZip(file, records.map((text) => [`${JSON.parse(text).id}.json`, text]));
}

/** The advisory database's layout (advisories/github-reviewed/…) with the committed records, as a git repository to clone. */
function advisoryRepository(dir: string): void {
  fs.cpSync(path.join(OSV_FIXTURES, 'advisories'), path.join(dir, 'advisories'), { recursive: true });
  const git = (...args: string[]) => {
    const run = spawnSync('git', ['-c', 'user.name=orgsec tests', '-c', 'user.email=tests@orgsec.invalid', ...args], { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  };
  git('init', '--quiet');
  git('add', '.');
  git('commit', '--quiet', '-m', 'committed OSV fixtures in the advisory database layout');
}

/** Writes the stand-ins and their data under `dir`; `epssCves` are given scores in the EPSS file. */
export async function writeStandIns(dir: string, epssCves: string[]): Promise<StandIns> {
  const bin = path.join(dir, 'bin');
  const data = path.join(dir, 'data');
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(data, { recursive: true });

  const downloads: Download[] = [
    // The committed PyPI OSV records; the committed npm one and three test advisories made from it;
    // an EPSS file in the published format with test scores for the advisories' CVEs.
    { url: 'https://osv-vulnerabilities.storage.googleapis.com/PyPI/all.zip', file: path.join(data, 'PyPI-all.zip') },
    { url: 'https://osv-vulnerabilities.storage.googleapis.com/npm/all.zip', file: path.join(data, 'npm-all.zip') },
    { url: 'https://epss.empiricalsecurity.com/epss_scores-current.csv.gz', file: path.join(data, 'epss.csv.gz') },
  ];
  await ecosystemZip(downloads[0]!.file, 'PyPI');
  await writeNpmAdvisoriesZip(downloads[1]!.file);
  writeEpssFile(downloads[2]!.file, epssCves.map((cve, i) => [cve, (0.01 * (i + 1)).toFixed(5), (0.5 + 0.01 * i).toFixed(5)]));
  const repository = path.join(data, 'advisory-database');
  advisoryRepository(repository);

  script(path.join(bin, 'curl'), `#!/bin/bash
# curl, but the README's downloads (curl -O URL) come from committed data.
for arg in "$@"; do
  case "$arg" in
${downloads.map((d) => `    ${quote(d.url)}) cp ${quote(d.file)} ${quote(path.basename(new URL(d.url).pathname))}; exit 0;;`).join('\n')}
  esac
done
exec ${quote(which('curl'))} --write-out '%{stderr}\\n${STATUS_MARK}%{http_code}>>\\n' "$@"
`);
  script(path.join(bin, 'git'), `#!/bin/bash
# git, but a clone of the advisory database is a clone of the committed records in its layout.
args=()
for arg in "$@"; do
  if [ "$arg" = ${quote(ADVISORY_DATABASE_URL)} ]; then args+=(${quote(`file://${repository}`)} advisory-database); else args+=("$arg"); fi
done
exec ${quote(which('git'))} "\${args[@]}"
`);
  script(path.join(bin, 'npx'), `#!/bin/bash
# npx, but the SBOM generator gives the SBOM it made of orgsec (test/fixtures/sbom says how).
case "$1" in
  @cyclonedx/cyclonedx-npm|@cyclonedx/cyclonedx-npm@*)
    while [ $# -gt 0 ]; do if [ "$1" = --output-file ]; then cp ${quote(SBOM_FIXTURE)} "$2"; exit 0; fi; shift; done
    echo 'the stand-in needs --output-file' >&2; exit 2;;
esac
exec ${quote(which('npx'))} "$@"
`);
  return { bin };
}

/** The statuses the real curl reported in a command's standard error, and that error without them. */
export function curlStatuses(stderr: string): { statuses: number[]; stderr: string } {
  const statuses: number[] = [];
  const rest = stderr.replace(/\n?<<readme http status (\d{3})>>\n/g, (_m, code: string) => { statuses.push(Number(code)); return ''; });
  return { statuses, stderr: rest };
}
