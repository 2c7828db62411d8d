import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';
import { linksOf, pathOf } from '../helpers/links';
import { fixtureDocuments, importOsv, osvDocument, type GeneratedOsv } from '../helpers/global-advisories';

// The global advisory list (interfaces.md "Advisory database") through real HTTP: the real OSV
// fixtures of every ecosystem, and generated advisories whose facts the tests know.

const pad = (n: number) => String(n).padStart(5, '0');
const day = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const SEVERITIES = ['LOW', 'MODERATE', 'HIGH', 'CRITICAL'] as const;

/** 40 generated advisories: one a day from 2024-01-01, every fifth unreviewed, #7 malware, #9 withdrawn. */
const GENERATED: GeneratedOsv[] = Array.from({ length: 40 }, (_, i) => ({
  id: i === 7 ? `MAL-2024-${pad(i)}` : `GHSA-gen${pad(i)}-2024`,
  ecosystem: i % 2 === 0 ? 'npm' : 'PyPI',
  name: i % 2 === 0 ? `gen-pkg-${i % 6}` : `Gen_Py.${i % 6}`,
  introduced: '1.0.0',
  fixed: `1.${i}.0`,
  published: `${day(i)}T10:00:00Z`,
  modified: `${day(i + 100)}T10:00:00Z`,
  severity: SEVERITIES[i % 4]!,
  cwe: `CWE-${i % 3 === 0 ? 79 : 89}`,
  reviewed: i % 5 !== 0,
  ...(i === 9 ? { withdrawn: `${day(200)}T00:00:00Z` } : {}),
}));
const FIXTURES = fixtureDocuments();
/** A classic token with no scope at all: public data needs none. */
const READER_TOKEN = 'svc_reader_no_scopes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load({ users: [{ login: 'reader', name: null }], tokens: [{ type: 'classic', user: 'reader', token: READER_TOKEN, scopes: [] }] } as never);
  await importOsv(t.services, GENERATED.map(osvDocument));
  // EPSS of the generated advisories: percentage i/100, percentile as the source writes it (text).
  for (const [i, g] of GENERATED.entries()) {
    await t.db.knex('advisories').where('svcsa_id', g.id).update({ epss_percentage: i / 100, epss_percentile: String(i / 50) });
  }
});
afterAll(() => t.close());

type Json = Record<string, any>;
const ids = (body: Json[]) => body.map((a) => a.svcsa_id as string);
const list = async (query: string, headers: Record<string, string> = {}) => {
  const res = await t.http().get(`/advisories${query}`).set(headers);
  expect({ query, status: res.status, body: res.status === 200 ? 'list' : res.body }).toEqual({ query, status: 200, body: 'list' });
  return res;
};
/** Every page of a list, following `Link` next. */
async function walk(firstUrl: string): Promise<string[]> {
  const seen: string[] = [];
  let url: string | undefined = firstUrl;
  while (url) {
    const res = await t.http().get(url);
    expect(res.status).toBe(200);
    seen.push(...ids(res.body));
    const next = linksOf(res.headers.link).next;
    url = next ? pathOf(next) : undefined;
  }
  return seen;
}

const generated = (keep: (g: GeneratedOsv, i: number) => boolean) => GENERATED.filter(keep).map((g) => g.id);
/** Published-descending, as the list's default order (fixtures published in 2022 come after). */
const newestFirst = (found: string[]) => [...found].reverse();

describe('GET /advisories/{svcsa_id}', () => {
  it('answers one advisory without a token, every field of the global shape present', async () => {
    const res = await t.http().get('/advisories/GHSA-25mq-v84q-4j7r');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeDefined();
    expect(res.body).toEqual({
      svcsa_id: 'GHSA-25mq-v84q-4j7r',
      cve_id: 'CVE-2022-31090',
      url: `${t.url}/advisories/GHSA-25mq-v84q-4j7r`,
      html_url: expect.stringContaining('/advisories/GHSA-25mq-v84q-4j7r'),
      type: 'reviewed',
      summary: expect.any(String),
      description: expect.any(String),
      vulnerabilities: [
        { package: { ecosystem: 'composer', name: 'guzzlehttp/guzzle' }, severity: 'high', vulnerable_version_range: '< 6.5.8', first_patched_version: '6.5.8', vulnerable_functions: [] },
        { package: { ecosystem: 'composer', name: 'guzzlehttp/guzzle' }, severity: 'high', vulnerable_version_range: '>= 7.0.0, < 7.4.5', first_patched_version: '7.4.5', vulnerable_functions: [] },
      ],
      severity: 'high',
      cvss: { vector_string: expect.stringMatching(/^CVSS:3\.1\//), score: expect.any(Number) },
      cvss_severities: { cvss_v3: { vector_string: expect.stringMatching(/^CVSS:3\.1\//), score: expect.any(Number) }, cvss_v4: { vector_string: null, score: 0 } },
      epss: null,
      cwes: [{ cwe_id: 'CWE-200', name: expect.any(String) }],
      identifiers: [{ type: 'SVCSA', value: 'GHSA-25mq-v84q-4j7r' }, { type: 'CVE', value: 'CVE-2022-31090' }],
      references: expect.arrayContaining([{ url: expect.any(String) }]),
      source_code_location: expect.any(String),
      credits: expect.any(Array),
      published_at: expect.stringMatching(/^2022-06-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      // This export of the advisory names neither (its database_specific has no github_reviewed_at, nvd_published_at).
      reviewed_at: null,
      nvd_published_at: null,
      withdrawn_at: null,
      classification: 'general',
    });
  });

  it('answers the same under /api/v3, with a valid token, and 304 to its ETag', async () => {
    const anonymous = await t.http().get('/api/v3/advisories/GHSA-22p3-qrh9-cx32');
    const withToken = await t.http().get('/advisories/GHSA-22p3-qrh9-cx32').set(bearer(READER_TOKEN));
    expect([anonymous.status, withToken.status]).toEqual([200, 200]);
    expect(anonymous.body.url).toBe(`${t.url}/api/v3/advisories/GHSA-22p3-qrh9-cx32`);
    expect(withToken.body.svcsa_id).toBe('GHSA-22p3-qrh9-cx32');
    const again = await t.http().get('/advisories/GHSA-22p3-qrh9-cx32').set('If-None-Match', String((await t.http().get('/advisories/GHSA-22p3-qrh9-cx32')).headers.etag));
    expect(again.status).toBe(304);
  });

  it('when the advisory is unknown, answers 404; a bad token is still 401', async () => {
    expect((await t.http().get('/advisories/GHSA-none-none-none')).status).toBe(404);
    const refused = await t.http().get('/advisories/GHSA-22p3-qrh9-cx32').set(bearer('svc_not_a_token'));
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 401, message: 'Bad credentials' });
    expect((await t.http().get('/advisories').set(bearer('svc_not_a_token'))).status).toBe(401);
  });
});


it('counts anonymous reads against the core rate limit, like every other read', async () => {
  const limited = await createTestApp({ rateLimits: { windowSeconds: 3600, authenticatedLimit: 100, anonymousLimit: 2, writeWindowSeconds: 60, writeLimit: 10, spammedStatus: 429 } });
  try {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await limited.http().get('/advisories'));
    expect(answers.map((res) => [res.status, res.headers['x-ratelimit-resource'], res.headers['x-ratelimit-used']])).toEqual([
      [200, 'core', '1'], [200, 'core', '2'], [answers[2]!.status, 'core', '3'],
    ]);
    expect(answers[2]!.status).toBeGreaterThanOrEqual(400);
  } finally {
    await limited.close();
  }
});

describe('GET /advisories filters', () => {
  it('lists everything but malware by default, newest published first', async () => {
    const res = await list('?per_page=100');
    const expected = [...newestFirst(generated((g) => !g.id.startsWith('MAL-'))), ...FIXTURES.map((f) => f.id as string)];
    expect(ids(res.body).sort()).toEqual([...expected].sort());
    expect(ids(res.body).slice(0, 39)).toEqual(newestFirst(generated((g) => !g.id.startsWith('MAL-'))));
    expect(res.headers.link).toBeUndefined();
  });

  it.each([
    ['type=malware', generated((g) => g.id.startsWith('MAL-'))],
    ['type=unreviewed', generated((g, i) => i % 5 === 0 && i !== 7)],
    ['svcsa_id=GHSA-gen00003-2024', ['GHSA-gen00003-2024']],
    ['cve_id=CVE-2024-00004', ['GHSA-gen00004-2024']],
    ['severity=critical&type=reviewed', generated((g, i) => g.severity === 'CRITICAL' && i % 5 !== 0 && i !== 7)],
    ['cwes=89,CWE-1&published=2024-01-01..2024-01-10', generated((g, i) => i <= 9 && i % 3 !== 0 && i !== 7)],
    ['is_withdrawn=true', ['GHSA-gen00009-2024']],
    ['published=2024-01-03', ['GHSA-gen00002-2024']],
    ['published=>=2024-02-06', generated((_, i) => i >= 36)],
    ['published=<2024-01-03', ['GHSA-gen00001-2024', 'GHSA-gen00000-2024', ...FIXTURES.map((f) => f.id as string)]],
    ['published=2024-02-07..*', generated((_, i) => i >= 37)],
    ['updated=>2024-05-18', generated((_, i) => i >= 39)],
    ['modified=<=2024-01-02&ecosystem=npm', ['GHSA-gen00000-2024', 'GHSA-3fvg-4v2m-98jf']],
    ['ecosystem=pip&published=>2024-02-03', generated((g, i) => i > 33 && g.ecosystem === 'PyPI')],
    ['epss_percentage=>=0.37', generated((_, i) => i >= 37)],
    ['epss_percentile=0.1..0.2', generated((_, i) => i >= 5 && i <= 10 && i !== 7)],
  ])('%s', async (query, expected) => {
    const res = await list(`?${query}&per_page=100`);
    expect(ids(res.body).sort()).toEqual([...expected].sort());
  });

  it.each([
    ['published', 'asc'], ['updated', 'desc'], ['epss_percentage', 'desc'], ['epss_percentile', 'asc'],
  ])('sort=%s direction=%s orders every advisory, ties by id', async (sort, direction) => {
    const res = await list(`?sort=${sort}&direction=${direction}&type=reviewed&ecosystem=npm&per_page=100`);
    const reviewedNpm = GENERATED.filter((g, i) => i % 5 !== 0 && g.ecosystem === 'npm');
    const keyed = reviewedNpm.map((g) => g.id);
    const expected = direction === 'asc' ? keyed : [...keyed].reverse();
    // Every generated key grows with i; the npm fixture (published 2022, no EPSS) sorts lowest.
    const withFixture = direction === 'asc' ? ['GHSA-3fvg-4v2m-98jf', ...expected] : [...expected, 'GHSA-3fvg-4v2m-98jf'];
    expect(ids(res.body)).toEqual(sort === 'updated' ? [...expected, 'GHSA-3fvg-4v2m-98jf'] : withFixture);
  });
});

/** A version inside and one outside each real fixture's ranges, in its ecosystem's syntax. */
const FIXTURE_MATCHES: Array<[ecosystem: string, affects: string, id: string, outside: string]> = [
  ['pip', 'Matrix_Synapse@1.61.0', 'GHSA-22p3-qrh9-cx32', 'matrix-synapse@1.61.1'],
  ['npm', 'jsrsasign@10.5.24', 'GHSA-3fvg-4v2m-98jf', 'jsrsasign@4.7.9'],
  ['maven', 'org.jenkins-ci.plugins:embeddable-build-status@2.0.3', 'GHSA-39r3-h8q6-2phq', 'org.jenkins-ci.plugins:embeddable-build-status@2.0.4'],
  ['nuget', 'sharpziplib@1.3.2', 'GHSA-m22m-h4rf-pwq3', 'SharpZipLib@1.3.3'],
  ['rubygems', 'octopoller@0.2.0', 'GHSA-26qj-cr27-r5c4', 'octopoller@0.3.0'],
  ['go', 'github.com/opencontainers/runc@v1.1.1', 'GHSA-f3fp-gc8g-vw66', 'github.com/opencontainers/runc@1.1.2'],
  ['rust', 'crossbeam-utils@0.8.6', 'GHSA-qc84-gqf4-9926', 'crossbeam-utils@0.8.7'],
  ['composer', 'LibreNMS/LibreNMS@22.3.0', 'GHSA-2gqg-2rg7-gh33', 'librenms/librenms@22.4.0'],
  ['pub', 'personnummer@3.0.2', 'GHSA-4xh4-v2pq-jvhm', 'personnummer@3.0.3'],
  ['composer', 'guzzlehttp/guzzle@7.4.4', 'GHSA-25mq-v84q-4j7r', 'guzzlehttp/guzzle@6.5.8'],
];

describe('GET /advisories?affects=', () => {
  it.each(FIXTURE_MATCHES)('%s: %s is affected, %s\'s version is not', async (ecosystem, affects, id, outside) => {
    expect(ids((await list(`?ecosystem=${ecosystem}&affects=${encodeURIComponent(affects)}`)).body)).toEqual([id]);
    expect(ids((await list(`?ecosystem=${ecosystem}&affects=${encodeURIComponent(outside)}`)).body)).toEqual([]);
    // Without ecosystem the package is looked for in every one.
    expect(ids((await list(`?affects=${encodeURIComponent(affects)}`)).body)).toEqual([id]);
  });

  it('a package without a version matches every advisory naming it; several values match any', async () => {
    const res = await list(`?affects=${encodeURIComponent('guzzlehttp/guzzle,jsrsasign@10.0.0,gen-pkg-0@1.0.0')}&per_page=100`);
    expect(ids(res.body).sort()).toEqual(['GHSA-25mq-v84q-4j7r', 'GHSA-3fvg-4v2m-98jf', ...generated((g, i) => g.name === 'gen-pkg-0' && i > 0 && i !== 7)].sort());
  });
});

describe('cursors', () => {
  it('walks the list forwards and backwards through Link, never skipping or repeating', async () => {
    const all = ids((await list('?per_page=100')).body);
    const forwards = await walk('/advisories?per_page=7');
    expect(forwards).toEqual(all);
    // From the last page back with rel="prev".
    let res = await t.http().get('/advisories?per_page=7');
    let last = res;
    while (linksOf(res.headers.link).next) {
      last = res = await t.http().get(pathOf(linksOf(res.headers.link).next!));
    }
    const backwards: string[] = [...ids(last.body)];
    let prev = linksOf(last.headers.link).prev;
    while (prev) {
      res = await t.http().get(pathOf(prev));
      backwards.unshift(...ids(res.body));
      prev = linksOf(res.headers.link).prev;
    }
    expect(backwards).toEqual(all);
    const links = linksOf((await t.http().get('/advisories?per_page=7&type=reviewed')).headers.link);
    expect(Object.keys(links).sort()).toEqual(['first', 'next']);
    expect(links.next).toMatch(/type=reviewed/);
  });

  it('a 16 KB request line of 1,000 affects values is served, and Link cursors carry the filters', async () => {
    const values = Array.from({ length: 990 }, (_, i) => `pkg-${pad(i)}@1.0.${i % 10}`);
    values.push(...Array.from({ length: 10 }, (_, i) => `gen-pkg-${i % 6}@1.0.${i}`));
    const url = `/advisories?ecosystem=npm&per_page=2&affects=${values.join(',')}`;
    expect(url.length).toBeGreaterThan(15_000);
    expect(url.length).toBeLessThanOrEqual(16 * 1024);
    const expected = generated((g, i) => g.ecosystem === 'npm' && i !== 0);
    const first = await t.http().get(url);
    expect(first.status).toBe(200);
    const links = linksOf(first.headers.link);
    expect(Object.keys(links).sort()).toEqual(['first', 'next']);
    expect(links.next).not.toMatch(/affects=/);
    expect(Buffer.byteLength(String(first.headers.link))).toBeLessThan(12 * 1024);
    const seen = [...ids(first.body), ...(await walk(pathOf(links.next!)))];
    expect(seen).toEqual(newestFirst(expected));
    // The first link starts the same list again.
    expect(ids((await t.http().get(pathOf(links.first!))).body)).toEqual(ids(first.body));
    // A carried cursor takes no filters of its own.
    const mixed = await t.http().get(`${pathOf(links.next!)}&severity=low`);
    expect(mixed.status).toBe(400);
  });

  it('a query longer than 16 KiB is 414; other operations keep their shorter limit', async () => {
    const long = await t.http().get(`/advisories?affects=${'a'.repeat(16 * 1024)}`);
    expect(long.status).toBe(414);
    const other = await t.http().get(`/orgs/acme/dependency-bot/alerts?package=${'a'.repeat(4000)}`);
    expect(other.status).toBe(414);
  });
});

describe('bad input', () => {
  const tooMany = `affects=${Array.from({ length: 1001 }, (_, i) => `p${i}`).join(',')}`;
  it.each([
    ['affects', tooMany],
    ['affects', 'ecosystem=npm&affects=lodash@not.a.version'],
    ['affects', 'ecosystem=npm&affects=lodash@'],
    ['ecosystem', 'ecosystem=cobol'],
    ['type', 'type=everything'],
    ['severity', 'severity=severe'],
    ['cwes', 'cwes=XSS'],
    ['published', 'published=2024-02-30'],
    ['updated', 'updated=2024-03-01..2024-01-01'],
    ['modified', 'modified=yesterday'],
    ['epss_percentage', 'epss_percentage=2'],
    ['epss_percentile', 'epss_percentile=>x'],
    ['is_withdrawn', 'is_withdrawn=maybe'],
    ['sort', 'sort=created'],
    ['per_page', 'per_page=101'],
  ].map(([field, query]) => [field, query!.length > 80 ? `${query!.slice(0, 30)}… (1,001 values)` : query, query]))('%s: %s answers 422 naming it', async (field, _title, query) => {
    const res = await t.http().get(`/advisories?${query}`);
    expect({ status: res.status, fields: (res.body.errors ?? []).map((e: Json) => e.field) }).toEqual({ status: 422, fields: [field] });
  });

  it('is worded as the alert lists word the same mistakes', async () => {
    const sentence = async (query: string) => (await t.http().get(`/advisories?${query}`)).body.message;
    expect(await sentence('ecosystem=cobol')).toBe('"ecosystem" must be one of composer, go, maven, npm, nuget, pip, pub, rubygems, rust; got "cobol".');
    expect(await sentence('severity=severe')).toBe('"severity" must be one of unknown, low, medium, high, critical; got "severe".');
    expect(await sentence('type=everything')).toBe('"type" must be one of reviewed, unreviewed, malware; got "everything".');
    expect(await sentence('per_page=101')).toBe('"per_page" must be an integer from 1 to 100; got 101.');
  });

  it('the page parameter and a forged cursor answer 400', async () => {
    expect((await t.http().get('/advisories?page=2')).status).toBe(400);
    expect((await t.http().get('/advisories?after=bm90LWEtY3Vyc29y')).status).toBe(400);
    expect((await t.http().get('/advisories?after=qAAAA')).status).toBe(400);
  });
});

describe('GraphQL', () => {
  const ADVISORY = `{ svcsaId type url cveId severity publishedAt reviewedAt sourceCodeLocation credits { name type }
    vulnerabilities { package { ecosystem name } vulnerableVersionRange firstPatchedVersion vulnerableFunctions } }`;

  it('securityAdvisory(id) answers what REST answers, without a token; an unknown id is null with NOT_FOUND', async () => {
    const rest = (await t.http().get('/advisories/GHSA-qc84-gqf4-9926')).body;
    const found = await gql(t, `{ securityAdvisory(id: "GHSA-qc84-gqf4-9926") ${ADVISORY} }`);
    expect(found.errors).toBeUndefined();
    expect(found.data.securityAdvisory).toEqual({
      svcsaId: rest.svcsa_id, type: 'REVIEWED', url: rest.url, cveId: rest.cve_id, severity: rest.severity.toUpperCase(),
      publishedAt: new Date(rest.published_at).toISOString(), reviewedAt: rest.reviewed_at, sourceCodeLocation: rest.source_code_location, credits: rest.credits.map((c: Json) => ({ name: c.name, type: c.type })),
      vulnerabilities: rest.vulnerabilities.map((v: Json) => ({
        package: { ecosystem: v.package.ecosystem.toUpperCase(), name: v.package.name }, vulnerableVersionRange: v.vulnerable_version_range,
        firstPatchedVersion: v.first_patched_version, vulnerableFunctions: v.vulnerable_functions,
      })),
    });
    const missing = await gql(t, '{ securityAdvisory(id: "GHSA-none-none-none") { svcsaId } }', { token: READER_TOKEN });
    expect({ data: missing.data.securityAdvisory, code: missing.errors?.[0]?.extensions.code }).toEqual({ data: null, code: 'NOT_FOUND' });
  });

  it('securityAdvisories(...) filters as REST does, as a connection whose cursors page both ways', async () => {
    const query = `query($after: String, $before: String, $first: Int, $last: Int) {
      securityAdvisories(ecosystem: NPM, affects: ["gen-pkg-0@1.0.0", "gen-pkg-2"], types: [REVIEWED, UNREVIEWED], sort: PUBLISHED, direction: ASC,
        first: $first, after: $after, last: $last, before: $before) {
        totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { svcsaId } } } }`;
    const rest = ids((await list(`?ecosystem=npm&affects=${encodeURIComponent('gen-pkg-0@1.0.0,gen-pkg-2')}&sort=published&direction=asc&per_page=100`)).body);
    expect(rest.length).toBeGreaterThan(4);
    const first = await gql(t, query, { variables: { first: 3 } });
    const connection = first.data.securityAdvisories;
    expect(connection.totalCount).toBe(rest.length);
    expect(connection.edges.map((e: Json) => e.node.svcsaId)).toEqual(rest.slice(0, 3));
    const next = (await gql(t, query, { variables: { first: 100, after: connection.pageInfo.endCursor } })).data.securityAdvisories;
    expect(next.edges.map((e: Json) => e.node.svcsaId)).toEqual(rest.slice(3));
    const back = (await gql(t, query, { variables: { last: 2, before: next.pageInfo.startCursor } })).data.securityAdvisories;
    expect(back.edges.map((e: Json) => e.node.svcsaId)).toEqual(rest.slice(1, 3));
  });

  it('bad arguments are refused naming the argument, as REST refuses them', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => `p${i}`);
    for (const [args, field] of [
      [`affects: ${JSON.stringify(tooMany)}`, 'affects'], ['ecosystem: NPM, affects: ["lodash@not.a.version"]', 'affects'], ['published: "2024-13-01"', 'published'],
      ['cwes: ["XSS"]', 'cwes'],
    ] as const) {
      const answer = await gql(t, `{ securityAdvisories(${args}) { totalCount } }`);
      expect({ args: args.slice(0, 40), code: answer.errors?.[0]?.extensions.code, fields: answer.errors?.[0]?.extensions.fields?.map((f) => f.field) })
        .toEqual({ args: args.slice(0, 40), code: 'BAD_USER_INPUT', fields: [field] });
    }
  });
});
