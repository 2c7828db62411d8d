// Worlds whose alerts span several of the loader's batches (world-loader-batches and the CLI tests).

const advisory = (svcsaId: string) => ({
  svcsa_id: svcsaId, summary: 'batch advisory', severity: 'high', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
  vulnerabilities: [{ package: { ecosystem: 'npm', name: 'left-pad' }, severity: 'high', vulnerable_version_range: '< 2.0.0', first_patched_version: { identifier: '2.0.0' } }],
});

/** A world of `count` alerts over three repositories of `org`; every seventh has no number. */
export function batchWorld(org: string, count: number) {
  const repos = ['one', 'two', 'three'];
  const alerts = Array.from({ length: count }, (_, i) => {
    const repository = `${org}/${repos[i % repos.length]}`;
    const base = { repository, advisory: `SVCSA-${org}`, package: { ecosystem: 'npm', name: 'left-pad' }, created_at: '2026-02-01T00:00:00Z' };
    if (i % 7 === 3) return { ...base, manifest_path: `unnumbered/${i}/package.json`, assignees: [`${org}-dev`] };
    const dismissed = i % 11 === 0
      ? { state: 'dismissed', dismissed_at: '2026-02-02T00:00:00Z', dismissed_by: `${org}-owner`, dismissed_reason: 'tolerable_risk' }
      : {};
    return { ...base, number: i + 1, manifest_path: `numbered/${i}/package.json`, assignees: i % 3 === 0 ? [`${org}-dev`, `${org}-owner`] : [], ...dismissed };
  });
  return {
    users: [{ login: `${org}-owner` }, { login: `${org}-dev` }],
    organizations: [{ login: org, owners: [`${org}-owner`], members: [`${org}-dev`] }],
    repositories: repos.map((name) => ({ owner: org, name })),
    advisories: [advisory(`SVCSA-${org}`)],
    alerts,
  };
}
