import fs from 'node:fs';
import path from 'node:path';
import {
  compileAffected,
  matchVersion,
  normalizePackageName,
  parseVulnerableVersionRange,
  renderAffected,
  type Ecosystem,
  type OsvAffectedVersions,
} from '../../src/modules/advisories/versions';

// Real GitHub-reviewed advisories in OSV form (test/fixtures/osv, CC-BY 4.0): each covers
// exactly the versions its ranges say, just inside and just outside every boundary, and renders
// the range the original shows for it.

const ADVISORIES = path.join(__dirname, '..', 'fixtures', 'osv', 'advisories', 'github-reviewed');

// The OSV ecosystems of the fixtures, by the spec's names (the OSV mapping owns the full table).
const SPEC_ECOSYSTEM: Readonly<Record<string, Ecosystem>> = {
  npm: 'npm', PyPI: 'pip', Maven: 'maven', NuGet: 'nuget', RubyGems: 'rubygems', Go: 'go', 'crates.io': 'rust', Packagist: 'composer', Pub: 'pub',
};

interface OsvAffected extends OsvAffectedVersions {
  package: { ecosystem: string; name: string };
  database_specific?: { last_known_affected_version_range?: string };
}

interface Case {
  id: string;
  ecosystem: Ecosystem;
  name: string;
  /** The original's vulnerable_version_range and first_patched_version, per affected entry. */
  shown: Array<[string, string | null]>;
  inside: string[];
  outside: string[];
}

const CASES: Case[] = [
  { id: 'GHSA-22p3-qrh9-cx32', ecosystem: 'pip', name: 'Matrix_Synapse', shown: [['< 1.61.1', '1.61.1']], inside: ['0.1', '1.61.0', '1.61.1rc1', '1.61.1.dev0'], outside: ['1.61.1', '1.61.1.post1', '1.62.0'] },
  { id: 'GHSA-3fvg-4v2m-98jf', ecosystem: 'npm', name: 'jsrsasign', shown: [['>= 4.8.0, < 10.5.25', '10.5.25']], inside: ['4.8.0', '10.5.24', '10.5.25-beta.1'], outside: ['4.7.9', '4.8.0-rc.1', '10.5.25', '11.0.0'] },
  { id: 'GHSA-39r3-h8q6-2phq', ecosystem: 'maven', name: 'org.jenkins-ci.plugins:embeddable-build-status', shown: [['< 2.0.4', '2.0.4']], inside: ['1.0', '2.0.3', '2.0.4-SNAPSHOT', '2.0.4-beta-1'], outside: ['2.0.4', '2.0.4.1', '2.0.5'] },
  { id: 'GHSA-m22m-h4rf-pwq3', ecosystem: 'nuget', name: 'sharpziplib', shown: [['< 1.3.3', '1.3.3']], inside: ['0.86.0', '1.3.2', '1.3.3-beta1'], outside: ['1.3.3', '1.3.3.1', '1.4.0'] },
  // "= 0.2.0" in the original; its OSV form adds versions ["0.2.0"] to [0.2.0, 0.3.0), which OSV's evaluation covers whole.
  { id: 'GHSA-26qj-cr27-r5c4', ecosystem: 'rubygems', name: 'octopoller', shown: [['= 0.2.0', '0.3.0']], inside: ['0.2.0', '0.2.1', '0.3.0.pre'], outside: ['0.1.9', '0.2.0.pre', '0.3.0'] },
  { id: 'GHSA-f3fp-gc8g-vw66', ecosystem: 'go', name: 'github.com/opencontainers/runc', shown: [['< 1.1.2', '1.1.2']], inside: ['0.0.0-20210101000000-abcdef123456', 'v1.0.0-rc95', '1.1.1'], outside: ['1.1.2', 'v1.1.3', '2.0.0+incompatible'] },
  { id: 'GHSA-qc84-gqf4-9926', ecosystem: 'rust', name: 'crossbeam-utils', shown: [['< 0.8.7', '0.8.7']], inside: ['0.1.0', '0.8.6', '0.8.7-alpha.1'], outside: ['0.8.7', '0.9.0'] },
  { id: 'GHSA-2gqg-2rg7-gh33', ecosystem: 'composer', name: 'LibreNMS/LibreNMS', shown: [['< 22.4.0', '22.4.0']], inside: ['1.0', '22.3.0', '22.4.0-RC1'], outside: ['22.4.0', 'v22.4.0', '22.4.1'] },
  { id: 'GHSA-4xh4-v2pq-jvhm', ecosystem: 'pub', name: 'personnummer', shown: [['< 3.0.3', '3.0.3']], inside: ['3.0.2', '3.0.3-dev'], outside: ['3.0.3', '3.0.3+1', '3.1.0'] },
  {
    id: 'GHSA-25mq-v84q-4j7r', ecosystem: 'composer', name: 'guzzlehttp/guzzle', shown: [['< 6.5.8', '6.5.8'], ['>= 7.0.0, < 7.4.5', '7.4.5']],
    inside: ['6.5.7', '7.0.0', '7.4.4'], outside: ['6.5.8', '6.9.9', '7.0.0-RC1', '7.4.5', '7.5.0'],
  },
];

function readAdvisory(id: string): { affected: OsvAffected[] } {
  const [month] = fs.readdirSync(ADVISORIES).flatMap((year) => fs.readdirSync(path.join(ADVISORIES, year)).map((m) => path.join(ADVISORIES, year, m))).filter((dir) => fs.existsSync(path.join(dir, id)));
  return JSON.parse(fs.readFileSync(path.join(month as string, id, `${id}.json`), 'utf8'));
}

function coveredBy(ecosystem: Ecosystem, entries: readonly OsvAffectedVersions[], versions: readonly string[]): string[] {
  const compiled = entries.map((entry) => compileAffected(ecosystem, entry));
  return versions.filter((version) =>
    compiled.some((entry) => {
      const match = matchVersion(entry, version);
      if (!match.ok) throw new Error(match.reason);
      return match.isAffected;
    }),
  );
}

describe.each(CASES)('the real advisory $id ($ecosystem)', ({ id, ecosystem, name, shown, inside, outside }) => {
  const advisory = readAdvisory(id);
  const entries = advisory.affected.filter((entry) => SPEC_ECOSYSTEM[entry.package.ecosystem] === ecosystem && normalizePackageName(ecosystem, entry.package.name) === normalizePackageName(ecosystem, name));

  it('names the package so that the dependency\'s spelling meets it', () => {
    expect(entries).toHaveLength(shown.length);
  });

  it('has ranges that all read in the ecosystem', () => {
    expect(entries.flatMap((entry) => compileAffected(ecosystem, entry).skipped)).toEqual([]);
  });

  it('covers the versions just inside its boundaries and none just outside', () => {
    expect(coveredBy(ecosystem, entries, [...inside, ...outside])).toEqual(inside);
  });

  it('renders the range and first patched version the original shows', () => {
    const rendered = entries.flatMap((entry) => renderAffected(ecosystem, entry, entry.database_specific?.last_known_affected_version_range));
    expect(rendered.map((vulnerability) => [vulnerability.vulnerableVersionRange, vulnerability.firstPatchedVersion])).toEqual(shown);
  });

  it('reads its rendered range back into events that cover the same versions', () => {
    const parsed = shown.map(([range]) => parseVulnerableVersionRange(ecosystem, range));
    const events = parsed.map((result) => {
      if (!result.ok) throw new Error(result.reason);
      return { ranges: [{ type: 'ECOSYSTEM' as const, events: result.events }] };
    });
    // "= A" means A alone: the OSV form's wider [A, fix) is the export's, not the original's.
    const expected = id === 'GHSA-26qj-cr27-r5c4' ? ['0.2.0'] : inside;
    expect(coveredBy(ecosystem, events, [...inside, ...outside])).toEqual(expected);
  });
});
