import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { linksOf, pathOf } from '../helpers/links';
import {
  AL, DEVS, ENTERPRISE, ORG, OTHER_ORG, REPOS, alertsWorld, makeAdvisories, makeAlerts, type DeclaredAlert,
} from '../helpers/alerts-world';

// Every list answer is checked against an independent computation over the declared world.

const advisories = makeAdvisories();
const declared = makeAlerts(320, 7, advisories);
const advisoryOf = new Map(advisories.map((a) => [a.svcsa_id, a]));
const owner = bearer(AL.owner);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(alertsWorld(declared, advisories));
});
afterAll(() => t.close());

type Query = Record<string, string | string[]>;
const key = (a: { repository: string; number: number }) => `${a.repository}#${a.number}`;
const repoIndex = (repository: string) => (repository.startsWith(`${ORG}/`) ? REPOS.indexOf(repository.slice(ORG.length + 1)) : -1);
const list = (q: Query, name: string) => (typeof q[name] === 'string' ? (q[name] as string).split(',') : undefined);

/** What a list should answer: the model of spec §4.4's filters and sorts. */
function model(alerts: DeclaredAlert[], q: Query): string[] {
  const matches = alerts.filter((a) => {
    const advisory = advisoryOf.get(a.advisory)!;
    const vulnerability = advisory.vulnerabilities.find((v) => v.package.ecosystem === a.package.ecosystem && v.package.name === a.package.name)!;
    const index = repoIndex(a.repository);
    const epss = advisory.epss?.percentage ?? null;
    const checks: Array<[string, () => boolean]> = [
      ['classification', () => list(q, 'classification')!.includes(advisory.classification)],
      ['state', () => list(q, 'state')!.includes(a.state)],
      ['severity', () => list(q, 'severity')!.includes(advisory.severity)],
      ['ecosystem', () => list(q, 'ecosystem')!.includes(a.package.ecosystem)],
      ['package', () => list(q, 'package')!.includes(a.package.name)],
      ['manifest', () => list(q, 'manifest')!.includes(a.manifest_path)],
      ['relationship', () => list(q, 'relationship')!.includes(a.relationship)],
      ['scope', () => q.scope === a.scope],
      ['epss_percentage', () => {
        if (epss === null) return false;
        const text = q.epss_percentage as string;
        const range = /^(.+)\.\.(.+)$/.exec(text);
        if (range) return epss >= Number(range[1]) && epss <= Number(range[2]);
        const [, op = '', n] = /^(>=|<=|>|<)?(.+)$/.exec(text)!;
        const v = Number(n);
        return { '': epss === v, '>': epss > v, '<': epss < v, '>=': epss >= v, '<=': epss <= v }[op]!;
      }],
      ['has', () => [q.has].flat().every((h) => (h === 'patch' ? vulnerability.first_patched_version !== null : index >= 0 && index < 3))],
      ['assignee', () => (q.assignee === '*' ? a.assignees.length > 0 : q.assignee === 'none' ? a.assignees.length === 0 : a.assignees.some((l) => list(q, 'assignee')!.includes(l)))],
      ['artifact_registry_url', () => index >= 0 && index % 2 === 0 && list(q, 'artifact_registry_url')!.includes(`https://registry.example/${REPOS[index]}`)],
      ['artifact_registry', () => index >= 0 && index % 2 === 0],
      ['runtime_risk', () => list(q, 'runtime_risk')!.some((r) => (index === 0 ? ['internet-exposed', 'sensitive-data'] : index === 1 || index === 2 ? ['lateral-movement'] : []).includes(r))],
    ];
    return checks.every(([name, check]) => q[name] === undefined || check());
  });
  const sort = (q.sort as string | undefined) ?? 'created';
  const sign = q.direction === 'asc' ? 1 : -1;
  const valueOf = (a: DeclaredAlert) =>
    sort === 'created' ? a.created_at : sort === 'updated' ? a.updated_at : advisoryOf.get(a.advisory)!.epss?.percentage ?? -1;
  const order = new Map(alerts.map((a, i) => [a, i])); // insertion order = alert id
  return matches
    .sort((x, y) => {
      const vx = valueOf(x);
      const vy = valueOf(y);
      if (vx !== vy) return (vx < vy ? -1 : 1) * sign;
      return (order.get(x)! - order.get(y)!) * sign;
    })
    .map(key);
}

function queryString(q: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) for (const v of [value].flat()) params.append(name, v);
  return params.toString();
}

/** Follows Link rel="next" to the end, collecting "owner/repo#number". */
async function fetchAll(path: string, q: Query, perPage = 100, repository?: string): Promise<string[]> {
  const seen: string[] = [];
  let next: string | undefined = `${path}?${queryString({ ...q, per_page: String(perPage) })}`;
  while (next) {
    const res: { status: number; body: any; headers: Record<string, string> } = await t.http().get(next).set(owner);
    expect(res.status).toBe(200);
    for (const alert of res.body) seen.push(`${alert.repository?.full_name ?? repository}#${alert.number}`);
    const link: string | undefined = linksOf(res.headers.link).next;
    next = link ? pathOf(link) : undefined;
  }
  return seen;
}

const orgAlerts = declared.filter((a) => a.repository.startsWith(`${ORG}/`));
const orgPath = `/orgs/${ORG}/dependency-bot/alerts`;

const SINGLE_FILTERS: Query[] = [
  { classification: 'malware' }, { classification: 'general,malware' },
  { state: 'open' }, { state: 'dismissed,fixed' }, { state: 'auto_dismissed' },
  { severity: 'critical' }, { severity: 'low,high' },
  { ecosystem: 'npm' }, { ecosystem: 'pip,rubygems' },
  { package: 'lodash' }, { package: 'left-pad,hyper' },
  { relationship: 'direct' }, { relationship: 'unknown,inconclusive' },
  { epss_percentage: '0.5' }, { epss_percentage: '>0.5' }, { epss_percentage: '<0.25' }, { epss_percentage: '>=0.75' },
  { epss_percentage: '<=0.1' }, { epss_percentage: '0.2..0.8' }, { epss_percentage: '.5' },
  { has: 'patch' }, { has: 'deployment' }, { has: ['patch', 'deployment'] },
  { assignee: '*' }, { assignee: 'none' }, { assignee: 'dev-1' }, { assignee: 'dev-0,dev-3' },
  { scope: 'runtime' }, { scope: 'development' },
  { artifact_registry_url: 'https://registry.example/repo-0,https://registry.example/repo-4' },
  { artifact_registry: 'vendorx-artifactory' },
  { runtime_risk: 'internet-exposed' }, { runtime_risk: 'lateral-movement,sensitive-data' },
];

describe('#24 organization list filters', () => {
  it.each(SINGLE_FILTERS.map((q) => [queryString(q), q] as const))('%s answers exactly the matching alerts, in order', async (_qs, q) => {
    const expected = model(orgAlerts, q);
    expect(await fetchAll(orgPath, q)).toEqual(expected);
  });

  it('answers combinations of filters exactly', async () => {
    // Deterministic combinations of two or three filters.
    const combos: Query[] = [];
    for (let i = 0; i < 12; i++) {
      const a = SINGLE_FILTERS[(i * 7) % SINGLE_FILTERS.length]!;
      const b = SINGLE_FILTERS[(i * 11 + 3) % SINGLE_FILTERS.length]!;
      const c = i % 3 === 0 ? SINGLE_FILTERS[(i * 5 + 1) % SINGLE_FILTERS.length]! : {};
      combos.push({ ...a, ...b, ...c });
    }
    for (const q of combos) expect({ q, got: await fetchAll(orgPath, q) }).toEqual({ q, got: model(orgAlerts, q) });
  });

  it.each([
    ['created', 'desc'], ['created', 'asc'], ['updated', 'desc'], ['updated', 'asc'], ['epss_percentage', 'desc'], ['epss_percentage', 'asc'],
  ])('sorts by %s %s with the alert as tie-breaker', async (sort, direction) => {
    const q = { sort, direction };
    expect(await fetchAll(orgPath, q, 50)).toEqual(model(orgAlerts, q));
  });

  it('defaults to sort=created, direction=desc', async () => {
    expect(await fetchAll(orgPath, {}, 100)).toEqual(model(orgAlerts, { sort: 'created', direction: 'desc' }));
  });
});

describe('#23 enterprise and #25 repository lists', () => {
  it('#23 lists the alerts of every organization of the enterprise the caller owns', async () => {
    const q = { state: 'open', sort: 'updated' };
    expect(await fetchAll(`/enterprises/${ENTERPRISE}/dependency-bot/alerts`, q)).toEqual(model(declared, q));
  });

  it('#23 for a security manager of one organization lists only that organization\'s alerts', async () => {
    const res = await t.http().get(`/enterprises/${ENTERPRISE}/dependency-bot/alerts?per_page=100`).set(bearer(AL.securityManager));
    expect(res.status).toBe(200);
    expect(res.body.every((a: { repository: { full_name: string } }) => a.repository.full_name.startsWith(`${ORG}/`))).toBe(true);
  });

  it('#23 for an enterprise member who manages no organization answers []', async () => {
    const res = await t.http().get(`/enterprises/${ENTERPRISE}/dependency-bot/alerts`).set(bearer(AL.entMember));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it.each([{ manifest: 'package-lock.json' }, { manifest: 'web/package-lock.json,Gemfile.lock' }, { state: 'open', has: 'patch' }, { sort: 'epss_percentage', direction: 'asc' }])(
    '#25 with %j answers exactly the matching alerts of the repository',
    async (q) => {
      const repo = `${ORG}/repo-1`;
      const expected = model(declared.filter((a) => a.repository === repo), q);
      expect(await fetchAll(`/repos/${repo}/dependency-bot/alerts`, q, 10, repo)).toEqual(expected);
    },
  );
});

describe('cursor pagination', () => {
  it('pages forward and then backward with a small per_page, missing and repeating nothing', async () => {
    const pages: string[][] = [];
    let res: { body: any; headers: Record<string, string> } = await t.http().get(`${orgPath}?per_page=7&sort=updated`).set(owner);
    for (;;) {
      pages.push(res.body.map((a: { repository: { full_name: string }; number: number }) => `${a.repository.full_name}#${a.number}`));
      const links = linksOf(res.headers.link);
      expect(links.last).toBeUndefined();
      if (!links.next) break;
      res = await t.http().get(pathOf(links.next)).set(owner);
    }
    expect(pages.flat()).toEqual(model(orgAlerts, { sort: 'updated' }));
    // Back from the last page to the first, through rel="prev".
    const back: string[][] = [pages[pages.length - 1]!];
    let prev = linksOf(res.headers.link).prev;
    while (prev) {
      const page = await t.http().get(pathOf(prev)).set(owner);
      back.unshift(page.body.map((a: { repository: { full_name: string }; number: number }) => `${a.repository.full_name}#${a.number}`));
      prev = linksOf(page.headers.link).prev;
    }
    expect(back).toEqual(pages);
  });

  it('with alerts inserted between pages, misses and repeats none of the alerts that were there', async () => {
    const before = model(orgAlerts, {});
    const seen: string[] = [];
    let next: string | undefined = `${orgPath}?per_page=9`;
    let pages = 0;
    while (next) {
      const res: { status: number; body: any; headers: Record<string, string> } = await t.http().get(next).set(owner);
      seen.push(...res.body.map((a: { repository: { full_name: string }; number: number }) => `${a.repository.full_name}#${a.number}`));
      pages++;
      if (pages === 3) {
        // New alerts that sort before, among and after the position reached.
        const fresh = makeAlerts(12, 99, advisories, Object.fromEntries(REPOS.map((r) => [`${ORG}/${r}`, 1000]))).filter((a) => a.repository.startsWith(`${ORG}/`));
        await t.load({ alerts: fresh });
      }
      const link: string | undefined = linksOf(res.headers.link).next;
      next = link ? pathOf(link) : undefined;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(before.filter((k) => !seen.includes(k))).toEqual([]);
  });

  it('refuses the page parameter, a forged cursor, and a cursor of another sort', async () => {
    expect((await t.http().get(`${orgPath}?page=2`).set(owner)).status).toBe(400);
    expect((await t.http().get(`${orgPath}?after=Zm9yZ2Vk`).set(owner)).status).toBe(400);
    const first = await t.http().get(`${orgPath}?per_page=2&sort=updated`).set(owner);
    const after = new URL(linksOf(first.headers.link).next!).searchParams.get('after')!;
    expect((await t.http().get(`${orgPath}?per_page=2&sort=created&after=${after}`).set(owner)).status).toBe(400);
  });
});

describe('validation of list parameters', () => {
  it.each([
    ['state', 'bogus'], ['state', 'open,bogus'], ['severity', 'severe'], ['ecosystem', 'cargo'], ['classification', 'benign'],
    ['relationship', 'indirect'], ['scope', 'test'], ['sort', 'severity'], ['direction', 'up'], ['has', 'fix'],
    ['epss_percentage', 'high'], ['epss_percentage', '1.5'], ['epss_percentage', '>'], ['epss_percentage', '0.8..0.2'], ['epss_percentage', '-0.1'],
    ['artifact_registry', 'jfrog'], ['runtime_risk', 'exposed'], ['assignee', 'not a login'], ['per_page', '0'], ['per_page', '101'], ['state', ''],
  ])('%s=%s answers 422 naming the parameter', async (name, value) => {
    const res = await t.http().get(`${orgPath}?${name}=${encodeURIComponent(value)}`).set(owner);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ resource: 'DependencyAlert', field: name, code: 'invalid' });
  });

  it('has=deployment is refused on the repository list', async () => {
    const res = await t.http().get(`/repos/${ORG}/repo-0/dependency-bot/alerts?has=deployment`).set(owner);
    expect(res.status).toBe(422);
  });
});

describe('answer shapes', () => {
  const ALERT_KEYS = [
    'number', 'state', 'dependency', 'security_advisory', 'security_vulnerability', 'url', 'html_url', 'created_at', 'updated_at',
    'dismissed_at', 'dismissed_by', 'dismissed_reason', 'dismissed_comment', 'fixed_at', 'auto_dismissed_at', 'assignees',
  ];

  it('organization list items carry every alert field and the repository summary', async () => {
    const res = await t.http().get(`${orgPath}?per_page=1&state=dismissed`).set(owner);
    const alert = res.body[0];
    expect(Object.keys(alert).sort()).toEqual([...ALERT_KEYS, 'repository'].sort());
    expect(alert.dismissed_by).toMatchObject({ login: 'al-owner', type: 'User' });
    expect(typeof alert.dismissed_reason).toBe('string');
    expect(Object.keys(alert.dependency).sort()).toEqual(['manifest_path', 'package', 'relationship', 'scope']);
    expect(Object.keys(alert.security_advisory).sort()).toEqual([
      'classification', 'cve_id', 'cvss', 'cvss_severities', 'cwes', 'description', 'epss', 'identifiers', 'published_at', 'references',
      'severity', 'summary', 'svcsa_id', 'updated_at', 'vulnerabilities', 'withdrawn_at',
    ]);
    expect(Object.keys(alert.security_vulnerability).sort()).toEqual(['first_patched_version', 'package', 'severity', 'vulnerable_version_range']);
    expect(alert.repository).toMatchObject({ full_name: expect.stringMatching(new RegExp(`^${ORG}/`)), owner: { login: ORG, type: 'Organization' } });
    for (const field of ['archive_url', 'assignees_url', 'blobs_url', 'branches_url', 'collaborators_url', 'comments_url', 'commits_url', 'compare_url',
      'contents_url', 'contributors_url', 'deployments_url', 'downloads_url', 'events_url', 'forks_url', 'git_commits_url', 'git_refs_url', 'git_tags_url',
      'hooks_url', 'issue_comment_url', 'issue_events_url', 'issues_url', 'keys_url', 'labels_url', 'languages_url', 'merges_url', 'milestones_url',
      'notifications_url', 'pulls_url', 'releases_url', 'stargazers_url', 'statuses_url', 'subscribers_url', 'subscription_url', 'tags_url', 'teams_url', 'trees_url']) {
      expect(alert.repository[field]).toEqual(expect.stringContaining(`/repos/${alert.repository.full_name}`));
    }
    expect(alert.url).toMatch(new RegExp(`/repos/${alert.repository.full_name}/dependency-bot/alerts/${alert.number}$`));
  });

  it('an open alert has every dismissal field null, and epss is null when the advisory has none', async () => {
    const res = await t.http().get(`${orgPath}?per_page=100&state=open`).set(owner);
    for (const alert of res.body) {
      expect([alert.dismissed_at, alert.dismissed_by, alert.dismissed_reason, alert.dismissed_comment]).toEqual([null, null, null, null]);
    }
    const withoutEpss = res.body.find((a: { security_advisory: { svcsa_id: string } }) => advisoryOf.get(a.security_advisory.svcsa_id)!.epss === null);
    expect(withoutEpss.security_advisory.epss).toBeNull();
  });

  it('repository list items and #26 omit repository', async () => {
    const listed = await t.http().get(`/repos/${ORG}/repo-3/dependency-bot/alerts?per_page=1`).set(owner);
    expect(listed.body[0].repository).toBeUndefined();
    const one = await t.http().get(`/repos/${ORG}/repo-3/dependency-bot/alerts/${listed.body[0].number}`).set(owner);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed.body[0]);
  });
});

describe('#26 GET one alert', () => {
  it('answers 404 for an unknown number, and for a number of another repository\'s alert', async () => {
    expect((await t.http().get(`/repos/${ORG}/repo-3/dependency-bot/alerts/99999`).set(owner)).status).toBe(404);
    expect((await t.http().get(`/repos/${ORG}/no-repo/dependency-bot/alerts/1`).set(owner)).status).toBe(404);
  });

  it.each(['abc', '0', '1e3', '-1'])('answers 422 for alert_number %s', async (n) => {
    expect((await t.http().get(`/repos/${ORG}/repo-3/dependency-bot/alerts/${n}`).set(owner)).status).toBe(422);
  });
});

describe('conditional requests', () => {
  it('lists and #26 send an ETag; If-None-Match with it answers 304 with no body', async () => {
    for (const path of [`${orgPath}?state=open`, `/repos/${ORG}/repo-3/dependency-bot/alerts`, `/repos/${ORG}/repo-3/dependency-bot/alerts/1`]) {
      const first = await t.http().get(path).set(owner);
      expect(first.headers.etag).toBeDefined();
      const second = await t.http().get(path).set(owner).set('If-None-Match', first.headers.etag!);
      expect(second.status).toBe(304);
      expect(second.text).toBe('');
    }
  });

  it('the ETag of a list changes when an alert in it changes', async () => {
    const repo = `${ORG}/repo-4`;
    const path = `/repos/${repo}/dependency-bot/alerts?state=open,dismissed`;
    const first = await t.http().get(path).set(owner);
    const target = first.body[0];
    await t.http().patch(`/repos/${repo}/dependency-bot/alerts/${target.number}`).set(owner).send({ assignees: target.assignees.length ? [] : ['dev-2'] }).expect(200);
    const second = await t.http().get(path).set(owner).set('If-None-Match', first.headers.etag!);
    expect(second.status).toBe(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });
});

describe('#27 PATCH one alert', () => {
  const repo = `${ORG}/repo-5`;
  const alertsOf = (state: string) => declared.filter((a) => a.repository === repo && a.state === state);
  const patch = (number: number, body: unknown, auth = owner) => t.http().patch(`/repos/${repo}/dependency-bot/alerts/${number}`).set(auth).send(body as object);

  it('dismisses an open alert with a reason and comment, setting dismissed_at, dismissed_by and updated_at', async () => {
    const target = alertsOf('open')[0]!;
    const res = await patch(target.number, { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'Accepted for now.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ number: target.number, state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'Accepted for now.', dismissed_by: { login: 'al-owner' } });
    expect(res.body.dismissed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.body.updated_at).toBe(res.body.dismissed_at);
    expect(res.body.repository).toBeUndefined();
    // Dismissing it again is a conflict that changes nothing.
    const before = await hashTables(t.db.knex);
    const again = await patch(target.number, { state: 'dismissed', dismissed_reason: 'not_used' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Alert ${target.number} is already dismissed`);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('reopens a dismissed alert, clearing the four dismissal fields', async () => {
    const target = alertsOf('dismissed')[0]!;
    const res = await patch(target.number, { state: 'open' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'open', dismissed_at: null, dismissed_by: null, dismissed_reason: null, dismissed_comment: null });
    expect(res.body.updated_at > target.updated_at).toBe(true);
  });

  it('reopens an auto-dismissed alert; refuses to reopen a fixed one (409) or dismiss it (409)', async () => {
    const auto = alertsOf('auto_dismissed')[0]!;
    expect((await patch(auto.number, { state: 'open' })).body).toMatchObject({ state: 'open', auto_dismissed_at: null });
    const fixed = alertsOf('fixed')[0]!;
    expect((await patch(fixed.number, { state: 'open' })).status).toBe(409);
    expect((await patch(fixed.number, { state: 'dismissed', dismissed_reason: 'inaccurate' })).status).toBe(409);
  });

  it('replaces the assignee set, and [] clears it, leaving the state and updated_at alone', async () => {
    const target = alertsOf('open')[1]!;
    const set = await patch(target.number, { assignees: ['dev-2', 'DEV-3'] });
    expect(set.status).toBe(200);
    expect(set.body.assignees.map((u: { login: string }) => u.login)).toEqual(['dev-2', 'dev-3']);
    expect(set.body.updated_at).toBe(target.updated_at);
    const cleared = await patch(target.number, { assignees: [] });
    expect(cleared.body.assignees).toEqual([]);
  });

  it('refuses an assignee who is not a user, or has no access to the repository (422 naming the login), changing nothing', async () => {
    const target = alertsOf('open')[1]!;
    for (const login of ['no-such-user', 'al-outsider']) {
      const before = await hashTables(t.db.knex);
      const res = await patch(target.number, { state: 'dismissed', dismissed_reason: 'not_used', assignees: ['dev-1', login] });
      expect(res.status).toBe(422);
      expect(res.body.message).toContain(login);
      expect(res.body.errors[0]).toMatchObject({ field: 'assignees', code: 'invalid' });
      expect(await hashTables(t.db.knex)).toEqual(before);
    }
  });

  it.each([
    ['nothing to change', {}, 'state'],
    ['only a comment', { dismissed_comment: 'x' }, 'state'],
    ['dismissed without a reason', { state: 'dismissed' }, 'dismissed_reason'],
    ['a reason outside the list', { state: 'dismissed', dismissed_reason: 'meh' }, 'dismissed_reason'],
    ['the fixed state', { state: 'fixed' }, 'state'],
    ['the auto_dismissed state', { state: 'auto_dismissed' }, 'state'],
    ['a comment over 280 characters', { state: 'dismissed', dismissed_reason: 'not_used', dismissed_comment: 'x'.repeat(281) }, 'dismissed_comment'],
    ['a reason with state open', { state: 'open', dismissed_reason: 'not_used' }, 'dismissed_reason'],
    ['assignees that are not a list', { assignees: 'dev-1' }, 'assignees'],
    ['too many assignees', { assignees: Array.from({ length: 11 }, (_, i) => `dev-${i}`) }, 'assignees'],
    ['a read-only key', { state: 'open', number: 5 }, 'number'],
    ['another read-only key', { state: 'open', dismissed_by: 'al-owner' }, 'dismissed_by'],
    ['a prototype key', JSON.parse('{"state":"open","__proto__":{"x":1}}'), '__proto__'],
  ])('refuses %s with 422 naming the field, changing nothing', async (_what, body, field) => {
    const target = alertsOf('open')[2]!;
    const before = await hashTables(t.db.knex);
    const res = await patch(target.number, body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('refuses a body that is not an object with 400', async () => {
    const res = await t.http().patch(`/repos/${repo}/dependency-bot/alerts/1`).set(owner).set('Content-Type', 'application/json').send('[1]');
    expect(res.status).toBe(400);
  });

  it('answers 404 for an unknown alert', async () => {
    expect((await patch(99999, { state: 'open' })).status).toBe(404);
  });

  it('two concurrent updates of one alert both take effect', async () => {
    const target = alertsOf('open')[3]!;
    const [a, b] = await Promise.all([
      patch(target.number, { state: 'dismissed', dismissed_reason: 'fix_started' }),
      patch(target.number, { assignees: ['dev-0'] }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const now = await t.http().get(`/repos/${repo}/dependency-bot/alerts/${target.number}`).set(owner);
    expect(now.body.state).toBe('dismissed');
    expect(now.body.assignees.map((u: { login: string }) => u.login)).toEqual(['dev-0']);
  });
});

describe('visibility narrows what lists show', () => {
  it('a public_repo-only token sees only the public repositories\' alerts in #24', async () => {
    const res = await t.http().get(`${orgPath}?per_page=100&sort=created`).set(bearer(AL.ownerPublicRepo));
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((a: { repository: { private: boolean } }) => !a.repository.private)).toBe(true);
  });

  it('a fine-grained token for selected repositories sees only their alerts in #24', async () => {
    const res = await t.http().get(`${orgPath}?per_page=100`).set(bearer(AL.fineSelected));
    expect(res.status).toBe(200);
    expect(new Set(res.body.map((a: { repository: { name: string } }) => a.repository.name))).toEqual(new Set(['repo-1', 'repo-4']));
  });

  it('another organization\'s alerts never appear in #24, and its repositories\' alerts do not resolve here', async () => {
    const res = await t.http().get(`${orgPath}?per_page=100`).set(owner);
    expect(res.body.some((a: { repository: { full_name: string } }) => a.repository.full_name.startsWith(`${OTHER_ORG}/`))).toBe(false);
    expect(DEVS.length).toBe(4);
  });
});
