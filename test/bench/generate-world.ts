import { mapOsvAdvisory } from '../../src/modules/advisories/osv';
import { renderRangeText } from '../../src/modules/advisories/stored-vulnerabilities';
import { osvDocument } from './generate-osv';

// A large, deterministic world for the benchmark: organizations, repositories, advisories
// and alerts, in the world-file format (so it goes through the same loader as users' files).
// The alerts come from a generator, so a world of a million alerts can be written to a file
// without ever holding it in memory.

export interface WorldSize {
  organizations: number;
  repositoriesPerOrganization: number;
  alerts: number;
  advisories: number;
}

export const BENCH_TOKEN = 'bench_owner_token_0123456789';
/** The organization every organization scenario reads. */
export const BIG_ORG = 'bench-org-0';
/**
 * BIG_ORG holds this share of the alerts, the other organizations share the rest evenly:
 * with 100,000 alerts it has 33,334, so a page 1,000 pages deep exists at 30 per page,
 * and the other organizations stay small as most real ones are.
 */
export const BIG_ORG_SHARE = 3;

function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function repositoriesOf(size: WorldSize) {
  const orgs = Array.from({ length: size.organizations }, (_, i) => `bench-org-${i}`);
  return orgs.map((org) => Array.from({ length: size.repositoriesPerOrganization }, (_, i) => ({ owner: org, name: `service-${i}`, private: i % 3 !== 0 })));
}

/**
 * Advisories of the public database's shape (issue 25): the OSV documents the advisory-import
 * benchmark writes (markdown `details` of 1–3 KB, CVSS v3 and some v4, 1–3 affected packages
 * across the ecosystems), mapped by the importer's own mapping into the world file's form.
 */
function advisoriesOf(size: WorldSize, seed: number) {
  const next = random(seed);
  return Array.from({ length: size.advisories }, (_, i) => {
    const mapping = mapOsvAdvisory(osvDocument(i), renderRangeText);
    if (mapping.kind !== 'mapped' || mapping.advisory.severity === 'unknown') throw new Error(`generated advisory ${i} does not map: ${JSON.stringify(mapping)}`);
    const a = mapping.advisory;
    const severity = a.severity;
    return {
      svcsa_id: a.svcsaId, cve_id: a.cveId, summary: a.summary, description: a.description, severity,
      cvss: a.cvss, cvss_severities: a.cvssSeverities,
      epss: i % 5 === 0 ? null : { percentage: Math.round(next() * 1000) / 1000, percentile: '0.5' },
      cwes: a.cwes, identifiers: a.identifiers, references: a.references, published_at: a.publishedAt, updated_at: a.updatedAt,
      vulnerabilities: a.vulnerabilities.map((v) => ({
        package: v.package, severity, vulnerable_version_range: v.vulnerableVersionRange,
        first_patched_version: v.firstPatchedVersion === null ? null : { identifier: v.firstPatchedVersion },
      })),
    };
  });
}

/** Everything of the world except its alerts, and a generator of the alerts (re-iterable, same alerts each time). */
export function benchWorldParts(size: WorldSize, seed = 1) {
  const reposByOrg = repositoriesOf(size);
  const [bigOrgRepos = [], ...otherOrgs] = reposByOrg;
  const otherRepos = otherOrgs.flat();
  const advisories = advisoriesOf(size, seed);
  const head = {
    users: [{ login: 'bench-owner' }, { login: 'bench-dev' }],
    organizations: reposByOrg.map((_, i) => ({ login: `bench-org-${i}`, owners: ['bench-owner'], members: ['bench-dev'] })),
    teams: reposByOrg.map((repos, i) => ({ org: `bench-org-${i}`, slug: 'devs', members: ['bench-dev'], repositories: repos.map((r) => ({ name: r.name, permission: 'read' as const })) })),
    repositories: reposByOrg.flat(),
    advisories,
    tokens: [{ token: BENCH_TOKEN, type: 'classic' as const, user: 'bench-owner', scopes: ['repo' as const, 'read:org' as const, 'read:audit_log' as const] }],
  };
  function* alerts() {
    // Its own random stream, so the alerts do not depend on how the rest was built.
    const next = random(seed + 1);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const numbers = new Map<string, number>();
    for (let i = 0; i < size.alerts; i++) {
      const inBigOrg = otherRepos.length === 0 || i % BIG_ORG_SHARE === 0;
      const repo = inBigOrg ? bigOrgRepos[Math.floor(i / BIG_ORG_SHARE) % bigOrgRepos.length]! : otherRepos[(i - Math.ceil(i / BIG_ORG_SHARE)) % otherRepos.length]!;
      const repository = `${repo.owner}/${repo.name}`;
      const number = (numbers.get(repository) ?? 0) + 1;
      numbers.set(repository, number);
      const advisory = pick(advisories);
      const vulnerability = pick(advisory.vulnerabilities);
      const day = 1 + Math.floor(next() * 28);
      const created = `2026-02-${String(day).padStart(2, '0')}T${String(Math.floor(next() * 24)).padStart(2, '0')}:00:00Z`;
      yield {
        repository, number, advisory: advisory.svcsa_id, package: vulnerability.package,
        manifest_path: pick(['package-lock.json', 'requirements.txt', 'Gemfile.lock']), scope: pick(['runtime', 'development'] as const),
        relationship: pick(['direct', 'transitive'] as const), state: 'open' as const, created_at: created, updated_at: created,
        assignees: next() < 0.3 ? ['bench-dev'] : [],
      };
    }
  }
  return { head, alerts };
}

/** The whole world as one object, for loading in process (100,000 alerts fit easily). */
export function generateWorld(size: WorldSize, seed = 1) {
  const { head, alerts } = benchWorldParts(size, seed);
  return { ...head, alerts: [...alerts()] };
}
