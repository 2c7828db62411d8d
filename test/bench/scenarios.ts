import { DistinctPages } from './distinct-pages';
import { BENCH_TOKEN, BIG_ORG } from './generate-world';
import type { Row, Sample, Scenario } from './measure';
import { oidcTokenScenarios } from './oidc-tokens-bench';
import type { WorldFacts } from './world-facts';

// The scenarios of issue 10 and their targets, as data; measure.ts runs them.

export const AUTH = { authorization: `Bearer ${BENCH_TOKEN}` };
const PER_PAGE = 30;
const ORG_ALERTS = `/orgs/${BIG_ORG}/dependency-bot/alerts`;
const FIRST_PAGE = 'organization alerts, first page, same request repeated';

/** The first page's ETag now, for the 304 scenario (the scenarios before it do not write). */
export async function currentEtag(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}${ORG_ALERTS}?per_page=${PER_PAGE}`, { headers: AUTH });
  await response.arrayBuffer();
  const etag = response.headers.get('etag');
  if (!etag) throw new Error('the first page has no ETag');
  return etag;
}

/** What a dashboard asks of GraphQL: every field of the REST page, for the same alerts (`$first` as a variable). */
export function dashboardQuery(first: number | '$first', org = BIG_ORG): string {
  const head = first === '$first' ? 'query($first: Int!) ' : '';
  return `${head}{ organization(login: "${org}") { dependencyAlerts(first: ${first}) { totalCount edges { cursor node {
  number state url htmlUrl createdAt updatedAt dismissedAt dismissedReason dismissedComment fixedAt autoDismissedAt
  dismissedBy { login } assignees { login url }
  dependency { package { ecosystem name } manifestPath scope relationship }
  securityAdvisory { svcsaId cveId summary description severity classification cvss { vectorString score } epss { percentage percentile }
    cwes { cweId name } identifiers { type value } references publishedAt updatedAt withdrawnAt
    vulnerabilities { package { ecosystem name } severity vulnerableVersionRange firstPatchedVersion } }
  securityVulnerability { package { ecosystem name } severity vulnerableVersionRange firstPatchedVersion }
  repository { nameWithOwner isPrivate description url owner { ... on Organization { login url } } }
} } } } }`;
}

const pageOf = (count: number) => (json: unknown) => {
  if (!Array.isArray(json) || json.length !== count) throw new Error(`expected ${count} alerts, got ${Array.isArray(json) ? json.length : typeof json}`);
};

const getSample = (path: string, count?: number, status = 200, headers: Record<string, string> = AUTH): Sample =>
  ({ method: 'GET', path, headers, status, ...(count === undefined ? {} : { check: pageOf(count) }) });

/** The Accept header @octokit/graphql sends (through @octokit/endpoint's defaults): a dashboard's client. */
const OCTOKIT_ACCEPT = 'application/vnd.github.v3+json';

function graphqlSample(first: number, org = BIG_ORG): Sample {
  return {
    method: 'POST', path: '/graphql', headers: { ...AUTH, 'content-type': 'application/json', accept: OCTOKIT_ACCEPT }, body: JSON.stringify({ query: dashboardQuery(first, org) }), status: 200,
    check: (json) => {
      const answer = json as { errors?: unknown[]; data?: { organization?: { dependencyAlerts?: { edges?: unknown[] } } } };
      const edges = answer.data?.organization?.dependencyAlerts?.edges?.length;
      if (answer.errors || edges !== first) throw new Error(`GraphQL answered ${edges} edges: ${JSON.stringify(answer.errors ?? '').slice(0, 200)}`);
    },
  };
}

const same = (sample: Sample) => ({ kind: 'same' as const, method: sample.method, path: sample.path, headers: sample.headers, expectStatus: sample.status, ...(sample.body === undefined ? {} : { body: sample.body }) });
const atLeast = (share: number) => (row: Row) => (row.ratio ?? 0) >= share;
const percent = (share: number) => `≥ ${Math.round(share * 100)}% of floor`;

/** The GraphQL probes issued the same number of statements. */
function sameSqlAtAnyPageSize(row: Row): boolean {
  const [at30, at100] = [row.sqlProbes?.['first: 30'], row.sqlProbes?.['first: 100']];
  return at30 !== undefined && at100 !== undefined && at30 === at100;
}

/**
 * The dashboard query built once at each page size, each over an organization no request has
 * read yet (so nothing of it is in memory): the statements must not grow with the page.
 */
const SQL_PROBES = [{ label: 'first: 30', sample: graphqlSample(30, 'bench-org-1') }, { label: 'first: 100', sample: graphqlSample(100, 'bench-org-2') }];

export interface ScenarioOptions {
  connections: number;
  tailConnections: number;
  /** Runs so far, to find the first page's throughput (the deep page's reference). */
  rpsOf: (scenario: string) => number | undefined;
  /** The 304 needs the page's current ETag, fetched just before it runs. */
  etag: string;
}

/**
 * Distinct organization pages (with `repositories`, those repositories' pages), starting `share`
 * of the way into the space of combinations. The floor's representative answer is a page of 30
 * from the same space.
 */
function distinctPlan(facts: WorldFacts, share: number, repositories?: string[]) {
  const firstIndex = Math.floor(new DistinctPages(BIG_ORG, facts.middleCursors, repositories).size * share);
  return { kind: 'distinct-pages' as const, org: BIG_ORG, cursors: facts.middleCursors, firstIndex, headers: AUTH, ...(repositories ? { repositories } : {}) };
}

const DISTINCT_SAMPLE = getSample(`${ORG_ALERTS}?per_page=${PER_PAGE}&severity=high,critical&state=open`, PER_PAGE);
const REPO_SAMPLE = getSample(`/repos/${BIG_ORG}/service-1/dependency-bot/alerts?state=open&severity=high,critical&per_page=${PER_PAGE}`, PER_PAGE);
const TAIL_TARGET = { text: 'p99 ≤ 200 ms', isMet: (row: Row) => row.load!.p99 <= 200 };

export function distinctPagesScenario(facts: WorldFacts, o: Pick<ScenarioOptions, 'connections'>): Scenario {
  const size = new DistinctPages(BIG_ORG, facts.middleCursors).size;
  return {
    name: `organization alerts, distinct filters per request (${size.toLocaleString('en')} combinations)`, connections: o.connections,
    sample: DISTINCT_SAMPLE, plan: distinctPlan(facts, 0), baseline: { kind: 'bytes' }, target: { text: percent(0.12), isMet: atLeast(0.12) },
  };
}

/** Distinct organization pages at the tail-latency scenario's connections. */
export function distinctTailScenario(facts: WorldFacts, o: Pick<ScenarioOptions, 'tailConnections'>): Scenario {
  return {
    name: 'organization alerts, distinct filters, tail latency', connections: o.tailConnections, sample: DISTINCT_SAMPLE, plan: distinctPlan(facts, 1 / 3),
    baseline: { kind: 'none' }, target: TAIL_TARGET,
  };
}

/** Distinct pages of the organization's repositories' lists (#25): which repository is one more filter. */
export function distinctRepoPagesScenario(facts: WorldFacts, o: Pick<ScenarioOptions, 'connections'>): Scenario {
  const size = new DistinctPages(BIG_ORG, facts.middleCursors, facts.repositories).size;
  return {
    name: `repository alerts, distinct repositories and filters per request (${size.toLocaleString('en')} combinations)`, connections: o.connections,
    sample: REPO_SAMPLE, plan: distinctPlan(facts, 1 / 2, facts.repositories), baseline: { kind: 'bytes' }, target: { text: percent(0.12), isMet: atLeast(0.12) },
  };
}

/** The same at the tail-latency scenario's connections. */
export function distinctRepoPagesTailScenario(facts: WorldFacts, o: Pick<ScenarioOptions, 'tailConnections'>): Scenario {
  return {
    name: 'repository alerts, distinct repositories and filters, tail latency', connections: o.tailConnections, sample: REPO_SAMPLE,
    plan: distinctPlan(facts, 5 / 6, facts.repositories), baseline: { kind: 'none' }, target: TAIL_TARGET,
  };
}

export function firstPageScenario(o: Pick<ScenarioOptions, 'connections'>): Scenario {
  const sample = getSample(`${ORG_ALERTS}?per_page=${PER_PAGE}`, PER_PAGE);
  return { name: FIRST_PAGE, connections: o.connections, sample, plan: same(sample), baseline: { kind: 'bytes' }, target: { text: percent(0.5), isMet: atLeast(0.5) } };
}

/** The 304 of a polling client whose page has not changed. */
export function notModifiedScenario(o: Pick<ScenarioOptions, 'connections' | 'etag'>): Scenario {
  const sample = getSample(`${ORG_ALERTS}?per_page=${PER_PAGE}`, undefined, 304, { ...AUTH, 'if-none-match': o.etag });
  return {
    name: 'organization alerts, first page, If-None-Match answered 304', connections: o.connections, sample, plan: same(sample),
    baseline: { kind: 'express' }, target: { text: '≥ 67% of Express route', isMet: atLeast(2 / 3) },
  };
}

export function sqliteScenarios(facts: WorldFacts, o: ScenarioOptions): Scenario[] {
  const graphql = graphqlSample(30);
  return [
    distinctPagesScenario(facts, o),
    firstPageScenario(o),
    notModifiedScenario(o),
    { name: 'repository alerts, state and severity filters, same request repeated', connections: o.connections, sample: REPO_SAMPLE, plan: same(REPO_SAMPLE), baseline: { kind: 'bytes' } },
    distinctRepoPagesScenario(facts, o),
    {
      name: 'GraphQL dashboard query (Octokit\'s Accept), same 30 alerts, every field', connections: o.connections, sample: graphql, plan: same(graphql), baseline: { kind: 'bytes' },
      sqlProbes: SQL_PROBES,
      target: {
        text: `${percent(0.1)}, built: same SQL at first: 30 and 100`,
        isMet: (row) => atLeast(0.1)(row) && sameSqlAtAnyPageSize(row),
      },
    },
    distinctTailScenario(facts, o),
    distinctRepoPagesTailScenario(facts, o),
    patchMixScenario(facts, o),
    ...oidcTokenScenarios(AUTH, o),
  ];
}

/**
 * The first page and a page 1,000 deep, built for every request: run against an instance
 * with the response cache off (RESPONSE_CACHE_MB=0), so keyset depth is what differs.
 */
export function builtPageScenarios(facts: WorldFacts, o: Pick<ScenarioOptions, 'connections' | 'rpsOf'>): Scenario[] {
  const perPage = facts.deepPerPage;
  const firstSample = getSample(`${ORG_ALERTS}?per_page=${perPage}`, perPage);
  const first: Scenario = {
    name: `organization alerts, first page of ${perPage}, built per request (response cache off)`, connections: o.connections,
    sample: firstSample, plan: same(firstSample), baseline: { kind: 'bytes' },
  };
  const deepSample = getSample(`${ORG_ALERTS}?per_page=${perPage}&after=${facts.deepCursor}`, perPage);
  return [first, {
    name: `organization alerts, page ${facts.deepPage.toLocaleString('en')} of ${perPage} (${((facts.deepPage - 1) * perPage).toLocaleString('en')} alerts deep), built per request`,
    connections: o.connections, sample: deepSample, plan: same(deepSample),
    baseline: { kind: 'given', name: 'first page built', rps: () => o.rpsOf(first.name) },
    target: { text: '≥ 80% of first page', isMet: atLeast(0.8) },
  }];
}

export const PATCH_MIX = 'distinct organization pages with 10% PATCH (dismiss / reopen)';

/** Reads beside writes: 9 in 10 requests distinct pages, 1 in 10 a PATCH toggling an alert; its floor the same bytes as the distinct pages'. */
export function patchMixScenario(facts: WorldFacts, o: Pick<ScenarioOptions, 'connections'>): Scenario {
  return {
    name: PATCH_MIX, connections: o.connections, sample: DISTINCT_SAMPLE, baseline: { kind: 'bytes' },
    plan: { ...distinctPlan(facts, 2 / 3), kind: 'patch-mix', alerts: facts.patchAlerts, writeEvery: 10 }, target: { text: percent(0.1), isMet: atLeast(0.1) },
  };
}

/**
 * A larger world served (issue 35: a million alerts): distinct organization and repository pages
 * and the PATCH mix, each judged by its p50 against the same scenario's on the smaller world
 * (`p50Of`, by name): cost must grow with the page, not with the world.
 */
export function largeWorldScenarios(facts: WorldFacts, o: Pick<ScenarioOptions, 'connections'>, p50Of: (scenario: string) => number | undefined, smaller: string): Scenario[] {
  const judged = ({ target: _ownTarget, ...scenario }: Scenario): Scenario => {
    const reference = p50Of(scenario.name);
    if (reference === undefined) return { ...scenario, baseline: { kind: 'none' } };
    return {
      ...scenario, baseline: { kind: 'none' },
      target: { text: `p50 ≤ 1.5 × ${smaller}'s (${reference} ms)`, isMet: (row) => row.load!.p50 <= 1.5 * Math.max(reference, 1) },
    };
  };
  return [distinctPagesScenario(facts, o), distinctRepoPagesScenario(facts, o), patchMixScenario(facts, o)].map(judged);
}
