// A large, deterministic world for the benchmark: organizations, repositories, advisories
// and alerts, in the world-file format (so it goes through the same loader as users' files).

export interface WorldSize {
  organizations: number;
  repositoriesPerOrganization: number;
  alerts: number;
  advisories: number;
}

export const BENCH_TOKEN = 'bench_owner_token_0123456789';

function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateWorld(size: WorldSize, seed = 1) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const orgs = Array.from({ length: size.organizations }, (_, i) => `bench-org-${i}`);
  const repos = orgs.flatMap((org) => Array.from({ length: size.repositoriesPerOrganization }, (_, i) => ({ owner: org, name: `service-${i}`, private: i % 3 !== 0 })));
  const packages: Array<[string, string]> = [['npm', 'left-pad'], ['npm', 'lodash'], ['pip', 'requests'], ['rubygems', 'rack'], ['maven', 'log4j-core'], ['go', 'x-net']];
  const severities = ['low', 'medium', 'high', 'critical'] as const;
  const advisories = Array.from({ length: size.advisories }, (_, i) => {
    const [ecosystem, name] = packages[i % packages.length]!;
    return {
      svcsa_id: `SVCSA-BENCH-${i}`, cve_id: `CVE-2026-${10000 + i}`, summary: `Benchmark advisory ${i} in ${name}`,
      description: `A vulnerability in ${name} found while benchmarking. `.repeat(8), severity: severities[i % 4]!,
      cvss: { vector_string: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 7.5 },
      epss: i % 5 === 0 ? null : { percentage: Math.round(next() * 1000) / 1000, percentile: '0.5' },
      cwes: [{ cwe_id: 'CWE-400', name: 'Uncontrolled Resource Consumption' }],
      identifiers: [{ type: 'SVCSA', value: `SVCSA-BENCH-${i}` }, { type: 'CVE', value: `CVE-2026-${10000 + i}` }],
      references: [{ url: `https://example.com/advisories/${i}` }],
      published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z',
      vulnerabilities: [{ package: { ecosystem, name }, severity: severities[i % 4]!, vulnerable_version_range: '< 2.0.0', first_patched_version: i % 2 ? { identifier: '2.0.0' } : null }],
    };
  });
  const numbers = new Map<string, number>();
  const alerts = Array.from({ length: size.alerts }, (_, i) => {
    const repo = repos[i % repos.length]!;
    const repository = `${repo.owner}/${repo.name}`;
    const number = (numbers.get(repository) ?? 0) + 1;
    numbers.set(repository, number);
    const advisory = pick(advisories);
    const day = 1 + Math.floor(next() * 28);
    const created = `2026-02-${String(day).padStart(2, '0')}T${String(Math.floor(next() * 24)).padStart(2, '0')}:00:00Z`;
    return {
      repository, number, advisory: advisory.svcsa_id, package: advisory.vulnerabilities[0]!.package,
      manifest_path: pick(['package-lock.json', 'requirements.txt', 'Gemfile.lock']), scope: pick(['runtime', 'development'] as const),
      relationship: pick(['direct', 'transitive'] as const), state: 'open' as const, created_at: created, updated_at: created,
      assignees: next() < 0.3 ? ['bench-dev'] : [],
    };
  });
  return {
    users: [{ login: 'bench-owner' }, { login: 'bench-dev' }],
    organizations: orgs.map((login) => ({ login, owners: ['bench-owner'], members: ['bench-dev'] })),
    teams: orgs.map((org) => ({ org, slug: 'devs', members: ['bench-dev'], repositories: repos.filter((r) => r.owner === org).map((r) => ({ name: r.name, permission: 'read' as const })) })),
    repositories: repos,
    advisories,
    alerts,
    tokens: [{ token: BENCH_TOKEN, type: 'classic' as const, user: 'bench-owner', scopes: ['repo' as const, 'read:org' as const] }],
  };
}
