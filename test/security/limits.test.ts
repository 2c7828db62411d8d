import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../../src/http/body';
import { SERVER_LIMITS, createHttpServer } from '../../src/http/http-server';
import { MAX_CURSOR_LENGTH } from '../../src/http/pagination';
import { MAX_QUERY_BYTES } from '../../src/http/query-length';
import { MAX_BUNDLE_BYTES } from '../../src/modules/attestations/attestations.schemas';
import { MAX_CONDITION_VALUES, MAX_REPO_RULES, MAX_RULE_NAME } from '../../src/modules/auto-triage/auto-triage.schemas';
import { MAX_ASSIGNEES, MAX_DISMISSED_COMMENT, MAX_LIST_ITEMS, MAX_LIST_PARAMETER_LENGTH } from '../../src/modules/dependency-alerts/alerts.schemas';
import {
  ARTIFACT_REGISTRIES, CLASSIFICATIONS, DISMISSED_REASONS, RELATIONSHIPS, RUNTIME_RISKS, SEVERITIES,
} from '../../src/modules/dependency-alerts/alerts.types';
import { ECOSYSTEMS } from '../../src/modules/advisories/ecosystems';
import { MAX_CLAIM_KEYS, MAX_CLAIM_KEY_LENGTH, MAX_CUSTOM_PROPERTY_NAME_LENGTH } from '../../src/shared/names';
import { errorBodyProblems } from '../helpers/error-body';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { exchange, listenOnLoopback, parseAnswer, slowClient, type SlowClient } from '../helpers/raw-http';
import { hashTables } from '../helpers/table-hash';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 8, limits: each documented limit at its boundary. The largest accepted input is
// served; one unit more is refused with a clear message and status, and changes nothing.
// GraphQL's limits are in graphql-limits.test.ts; the HTTP server's own (header size,
// slow clients) are at the end of this file.

const ORG = 'acme-corp';
const ALERT = `/repos/${ORG}/api/dependency-bot/alerts/1`;
const ORG_ALERTS = `/orgs/${ORG}/dependency-bot/alerts`;
/** Users who can read acme-corp/api, one more than an alert may have as assignees. */
const READERS = Array.from({ length: MAX_ASSIGNEES + 1 }, (_, i) => `limit-reader-${i}`);
const LONGEST_PROPERTY = 'p'.repeat(MAX_CUSTOM_PROPERTY_NAME_LENGTH);

/** The demo world, plus enough readers of acme-corp/api and a property with the longest name. */
function limitsWorld() {
  const world = demoWorld() as Record<string, any>;
  world.users.push(...READERS.map((login) => ({ login })));
  const api = world.repositories.find((r: { owner: string; name: string }) => r.owner === ORG && r.name === 'api');
  api.collaborators = [...(api.collaborators ?? []), ...READERS.map((login) => ({ login, permission: 'read' }))];
  world.organizations.find((o: { login: string }) => o.login === ORG).custom_properties.push({ name: LONGEST_PROPERTY, value_type: 'string' });
  return world;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(limitsWorld());
});
afterAll(() => t.close());

const owner = () => bearer(DEMO_OWNER_TOKEN);

/** Runs `refused`, expects `status` with the documented error body, and that no table changed. */
async function expectRefusedUnchanged(refused: () => Promise<{ status: number; headers: any; body: any }>, status: number, message: RegExp) {
  const before = await hashTables(t.db.knex);
  const res = await refused();
  expect({ status: res.status, problems: errorBodyProblems(res) }).toEqual({ status, problems: [] });
  expect(res.body.message).toMatch(message);
  expect(await hashTables(t.db.knex)).toEqual(before);
  return res;
}

/** `text` with spaces added after its first character, to exactly `bytes` bytes (still the same JSON). */
function padJson(text: string, bytes: number): string {
  const padding = bytes - Buffer.byteLength(text);
  if (padding < 0) throw new Error(`${text.length} bytes is already more than ${bytes}`);
  return `${text[0]}${' '.repeat(padding)}${text.slice(1)}`;
}

/** A comma-separated list of exactly `length` characters, items of at most `itemLength`. */
function commaListOfLength(length: number, itemLength: number): string {
  const items: string[] = [];
  let used = 0;
  while (used < length) {
    const room = length - used - (items.length > 0 ? 1 : 0);
    const item = 'x'.repeat(Math.min(itemLength, room));
    used += item.length + (items.length > 0 ? 1 : 0);
    items.push(item);
  }
  return items.join(',');
}

describe('request bodies', () => {
  it(`reads a body of exactly ${MAX_BODY_BYTES} bytes; one byte more is 413 and changes nothing`, async () => {
    const body = JSON.stringify({ assignees: [READERS[0]] });
    const patch = (bytes: number) => t.http().patch(ALERT).set(owner()).set('Content-Type', 'application/json').send(padJson(body, bytes));
    await expectRefusedUnchanged(() => patch(MAX_BODY_BYTES + 1), 413, /too large/);
    const accepted = await patch(MAX_BODY_BYTES);
    expect(accepted.status).toBe(200);
    expect(accepted.body.assignees.map((u: { login: string }) => u.login)).toEqual([READERS[0]]);
  });

  it(`reads an attestation bundle of exactly ${MAX_BUNDLE_BYTES} bytes; one byte more is 413 and changes nothing`, async () => {
    const body = JSON.stringify({ bundle: demoWorld().attestations[0]!.bundle });
    const post = (bytes: number) => t.http().post(`/repos/${ORG}/api/attestations`).set(owner()).set('Content-Type', 'application/json').send(padJson(body, bytes));
    await expectRefusedUnchanged(() => post(MAX_BUNDLE_BYTES + 1), 413, /too large/);
    const accepted = await post(MAX_BUNDLE_BYTES);
    expect(accepted.status).toBe(201);
    expect(accepted.body).toEqual({ id: expect.any(Number) });
  });

  it(`reads JSON nested ${MAX_JSON_DEPTH} levels; one more is 400 and changes nothing`, async () => {
    // Nested inside a key the operation refuses anyway: the depth check answers first.
    const nested = (levels: number) => `{"assignees":["${READERS[1]}"],"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const patch = (levels: number) => t.http().patch(ALERT).set(owner()).set('Content-Type', 'application/json').send(nested(levels));
    await expectRefusedUnchanged(() => patch(MAX_JSON_DEPTH + 1), 400, new RegExp(`nested more than ${MAX_JSON_DEPTH} levels`));
    const within = await patch(MAX_JSON_DEPTH);
    expect(within.status).toBe(422); // past the depth check: refused for the unknown key "x"
    expect(within.body.errors).toEqual([expect.objectContaining({ field: 'x' })]);
  });
});

describe('lists and strings in alert requests', () => {
  // Every comma-separated filter of #24, each item a value the filter accepts.
  const COMMA_FILTERS: Record<string, string> = {
    classification: CLASSIFICATIONS[0], state: 'open', severity: SEVERITIES[0], ecosystem: ECOSYSTEMS[0], package: 'left-pad',
    relationship: RELATIONSHIPS[0], artifact_registry_url: 'https://registry.example', artifact_registry: ARTIFACT_REGISTRIES[0], runtime_risk: RUNTIME_RISKS[0],
    assignee: 'bob',
  };
  const list = (value: string, count: number) => Array.from({ length: count }, () => value).join(',');

  it.each(Object.entries(COMMA_FILTERS))(`%s takes ${MAX_LIST_ITEMS} comma-separated values; one more is 422 naming it`, async (filter, value) => {
    const accepted = await t.http().get(ORG_ALERTS).query({ [filter]: list(value, MAX_LIST_ITEMS) }).set(owner());
    expect(accepted.status).toBe(200);
    const refused = await t.http().get(ORG_ALERTS).query({ [filter]: list(value, MAX_LIST_ITEMS + 1) }).set(owner());
    expect({ status: refused.status, problems: errorBodyProblems(refused), field: refused.body.errors?.[0]?.field }).toEqual({ status: 422, problems: [], field: filter });
  });

  it(`has may be repeated ${MAX_LIST_ITEMS} times; once more is 422 naming it`, async () => {
    const repeated = (count: number) => `${ORG_ALERTS}?${Array.from({ length: count }, () => 'has=patch').join('&')}`;
    expect((await t.http().get(repeated(MAX_LIST_ITEMS)).set(owner())).status).toBe(200);
    const refused = await t.http().get(repeated(MAX_LIST_ITEMS + 1)).set(owner());
    expect({ status: refused.status, field: refused.body.errors?.[0]?.field }).toEqual({ status: 422, field: 'has' });
  });

  it(`a comma-separated filter may be ${MAX_LIST_PARAMETER_LENGTH} characters long; one more is 422 naming it`, async () => {
    const ask = (length: number) => t.http().get(ORG_ALERTS).query({ package: commaListOfLength(length, 200) }).set(owner());
    expect((await ask(MAX_LIST_PARAMETER_LENGTH)).status).toBe(200);
    const refused = await ask(MAX_LIST_PARAMETER_LENGTH + 1);
    // The value is shown cut to its first 60 characters, with its length.
    const shown = `"${commaListOfLength(MAX_LIST_PARAMETER_LENGTH + 1, 200).slice(0, 60)}…" (${MAX_LIST_PARAMETER_LENGTH + 1} characters)`;
    expect({ status: refused.status, field: refused.body.errors?.[0]?.field, message: refused.body.message }).toEqual({
      status: 422, field: 'package', message: `"package" must be at most ${MAX_LIST_PARAMETER_LENGTH} characters; got ${shown}.`,
    });
  });

  it(`a query string may be ${MAX_QUERY_BYTES} bytes, and its answer's headers, Link included, stay under 16 KiB; one more byte is 414`, async () => {
    const first = await t.http().get(ORG_ALERTS).query({ per_page: 1 }).set(owner());
    const after = new URL(/<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!).searchParams.get('after')!;
    const start = `per_page=1&after=${encodeURIComponent(after)}&note=`;
    const withQuery = (bytes: number) => `${ORG_ALERTS}?${start}${'n'.repeat(bytes - start.length)}`;
    const served = await t.http().get(withQuery(MAX_QUERY_BYTES)).set(owner());
    expect(served.status).toBe(200);
    expect((served.headers.link as string).match(/rel="(next|prev|first)"/g)).toHaveLength(3);
    const headerBytes = Object.entries(served.headers).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 0);
    expect(headerBytes).toBeLessThan(16 * 1024);
    // Measured as Link writes it: raw characters that percent-encoding triples count three times.
    const inflating = `${ORG_ALERTS}?note=${'('.repeat(Math.ceil(MAX_QUERY_BYTES / 3))}`;
    expect((await t.http().get(inflating).set(owner())).status).toBe(414);
    await expectRefusedUnchanged(() => t.http().get(withQuery(MAX_QUERY_BYTES + 1)).set(owner()), 414, new RegExp(`^The query string is ${MAX_QUERY_BYTES + 1} bytes once percent-encoded; at most ${MAX_QUERY_BYTES} are accepted\\.$`));
  });

  it(`a cursor longer than ${MAX_CURSOR_LENGTH} characters is 422 naming it, before it is decoded`, async () => {
    const first = await t.http().get(ORG_ALERTS).query({ per_page: 1 }).set(owner());
    const next = new URL(/<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!).searchParams.get('after')!;
    expect((await t.http().get(ORG_ALERTS).query({ per_page: 1, after: next }).set(owner())).status).toBe(200);
    const refused = await t.http().get(ORG_ALERTS).query({ per_page: 1, after: next.padEnd(MAX_CURSOR_LENGTH + 1, 'A') }).set(owner());
    expect({ status: refused.status, problems: errorBodyProblems(refused), field: refused.body.errors?.[0]?.field }).toEqual({ status: 422, problems: [], field: 'after' });
  });

  it(`an alert takes ${MAX_ASSIGNEES} assignees; one more is 422 and changes nothing`, async () => {
    const assign = (logins: string[]) => t.http().patch(ALERT).set(owner()).send({ assignees: logins });
    const refused = await expectRefusedUnchanged(() => assign(READERS), 422, new RegExp(`at most ${MAX_ASSIGNEES} users`));
    expect(refused.body.errors[0]).toMatchObject({ field: 'assignees', code: 'invalid' });
    const accepted = await assign(READERS.slice(0, MAX_ASSIGNEES));
    expect(accepted.status).toBe(200);
    expect(accepted.body.assignees.map((u: { login: string }) => u.login).sort()).toEqual(READERS.slice(0, MAX_ASSIGNEES).sort());
  });

  it(`a dismissal comment may be ${MAX_DISMISSED_COMMENT} characters; one more is 422 and changes nothing`, async () => {
    const dismiss = (comment: string) => t.http().patch(ALERT).set(owner()).send({ state: 'dismissed', dismissed_reason: DISMISSED_REASONS[0], dismissed_comment: comment });
    const refused = await expectRefusedUnchanged(() => dismiss('c'.repeat(MAX_DISMISSED_COMMENT + 1)), 422, new RegExp(`at most ${MAX_DISMISSED_COMMENT} characters`));
    expect(refused.body.errors[0]).toMatchObject({ field: 'dismissed_comment', code: 'invalid' });
    const accepted = await dismiss('c'.repeat(MAX_DISMISSED_COMMENT));
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ state: 'dismissed', dismissed_comment: 'c'.repeat(MAX_DISMISSED_COMMENT) });
  });
});

describe('OIDC customization', () => {
  const keys = (count: number) => Array.from({ length: count }, (_, i) => `claim_${i}`);
  const TEMPLATES = [
    { label: '#18, the organization template', path: `/orgs/${ORG}/actions/oidc/customization/sub`, body: (k: string[]) => ({ include_claim_keys: k }) },
    { label: '#20, a repository template', path: `/repos/${ORG}/api/actions/oidc/customization/sub`, body: (k: string[]) => ({ use_default: false, include_claim_keys: k }) },
  ];

  it.each(TEMPLATES)(`$label takes ${MAX_CLAIM_KEYS} claim keys; one more is 422 and changes nothing`, async ({ path, body }) => {
    await expectRefusedUnchanged(() => t.http().put(path).set(owner()).send(body(keys(MAX_CLAIM_KEYS + 1))), 422, new RegExp(`at most ${MAX_CLAIM_KEYS} keys`));
    expect((await t.http().put(path).set(owner()).send(body(keys(MAX_CLAIM_KEYS)))).status).toBe(201);
    expect((await t.http().get(path).set(owner())).body.include_claim_keys).toEqual(keys(MAX_CLAIM_KEYS));
  });

  it.each(TEMPLATES)(`$label takes a claim key of ${MAX_CLAIM_KEY_LENGTH} characters; one more is 422 and changes nothing`, async ({ path, body }) => {
    const longest = 'k'.repeat(MAX_CLAIM_KEY_LENGTH);
    const refused = await expectRefusedUnchanged(() => t.http().put(path).set(owner()).send(body(['repo', `${longest}k`])), 422, new RegExp(`longer than ${MAX_CLAIM_KEY_LENGTH} characters`));
    expect(refused.body.errors[0]).toMatchObject({ field: 'include_claim_keys.1' });
    expect((await t.http().put(path).set(owner()).send(body(['repo', longest]))).status).toBe(201);
    expect((await t.http().get(path).set(owner())).body.include_claim_keys).toEqual(['repo', longest]);
  });

  it(`includes a custom property named with ${MAX_CUSTOM_PROPERTY_NAME_LENGTH} characters; one more is 400 and changes nothing`, async () => {
    const include = (name: string) => t.http().post(`/orgs/${ORG}/actions/oidc/customization/properties/repo`).set(owner()).send({ custom_property_name: name });
    await expectRefusedUnchanged(() => include(`${LONGEST_PROPERTY}p`), 400, new RegExp(`at most ${MAX_CUSTOM_PROPERTY_NAME_LENGTH} characters`));
    const accepted = await include(LONGEST_PROPERTY);
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ custom_property_name: LONGEST_PROPERTY });
  });
});

describe('auto-triage rules', () => {
  const orgRules = `/orgs/${ORG}/dependency-bot/rules`;
  const create = (path: string, body: object) => t.http().post(path).set(owner()).send(body);

  it(`takes a name of ${MAX_RULE_NAME} characters; one more is 422 naming it and changes nothing`, async () => {
    const refused = await expectRefusedUnchanged(() => create(orgRules, { name: 'n'.repeat(MAX_RULE_NAME + 1), conditions: { severity: ['low'] } }), 422, new RegExp(`at most ${MAX_RULE_NAME} characters`));
    expect(refused.body.errors[0]).toMatchObject({ field: 'name' });
    expect((await create(orgRules, { name: 'n'.repeat(MAX_RULE_NAME), conditions: { severity: ['low'] } })).status).toBe(201);
  });

  it(`takes ${MAX_CONDITION_VALUES} values in a condition; one more is 422 naming it and changes nothing`, async () => {
    const packages = (n: number) => Array.from({ length: n }, (_, i) => `package-${i}`);
    const refused = await expectRefusedUnchanged(() => create(orgRules, { name: 'many', conditions: { package: packages(MAX_CONDITION_VALUES + 1) } }), 422, new RegExp(`at most ${MAX_CONDITION_VALUES} items`));
    expect(refused.body.errors[0]).toMatchObject({ field: 'conditions.package' });
    expect((await create(orgRules, { name: 'many', conditions: { package: packages(MAX_CONDITION_VALUES) } })).status).toBe(201);
  });

  it(`holds ${MAX_REPO_RULES} rules per repository; one more is 422 and changes nothing`, async () => {
    const repoRules = `/repos/${ORG}/infra/dependency-bot/rules`;
    for (let i = 0; i < MAX_REPO_RULES; i++) expect((await create(repoRules, { name: `r${i}`, conditions: { severity: ['low'] } })).status).toBe(201);
    await expectRefusedUnchanged(() => create(repoRules, { name: 'one more', conditions: { severity: ['low'] } }), 422, new RegExp(`at most ${MAX_REPO_RULES} auto-triage rules`));
  });
});

describe('the HTTP server', () => {
  const get = (path: string, headers: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DEMO_OWNER_TOKEN}\r\n${headers}Connection: close\r\n\r\n`;

  it(`serves a request with ${SERVER_LIMITS.maxHeaderSize - 1} bytes of URL, header names and values; one more byte is 431 with the error body`, async () => {
    const server = createHttpServer(t.app);
    const port = await listenOnLoopback(server);
    try {
      const path = `/orgs/${ORG}/organization-roles`;
      // Node counts the URL, header names and header values (not the method, version, ": " or line ends).
      const fixed = path.length + 'Host'.length + '127.0.0.1'.length + 'Authorization'.length + `Bearer ${DEMO_OWNER_TOKEN}`.length + 'Connection'.length + 'close'.length + 'X-Pad'.length;
      const padded = (counted: number) => get(path, `X-Pad: ${'a'.repeat(counted - fixed)}\r\n`);
      expect((await exchange(port, padded(SERVER_LIMITS.maxHeaderSize - 1))).status).toBe(200);
      const refused = await exchange(port, padded(SERVER_LIMITS.maxHeaderSize));
      const body = JSON.parse(refused.body);
      expect({ status: refused.status, problems: errorBodyProblems({ status: refused.status!, headers: refused.headers, body }) }).toEqual({ status: 431, problems: [] });
    } finally {
      server.close();
    }
  });

  it('keeps answering while slow clients trickle headers or bodies, and drops them after the timeouts', async () => {
    const limits = { headersTimeout: 1_000, requestTimeout: 1_500, connectionsCheckingInterval: 100 };
    const server = createHttpServer(t.app, limits);
    const port = await listenOnLoopback(server);
    const before = await hashTables(t.db.knex);
    const clients: SlowClient[] = [];
    try {
      const opening = `PATCH ${ALERT} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DEMO_OWNER_TOKEN}\r\nContent-Type: application/json\r\n`;
      const slowHeaders = Array.from({ length: 4 }, () => slowClient(port, `${opening}X-Slow: `, 'a', 100));
      const silent = Array.from({ length: 2 }, () => slowClient(port, '', '', 0));
      const body = JSON.stringify({ assignees: [] });
      const slowBodies = Array.from({ length: 4 }, () => slowClient(port, `${opening}Content-Length: ${body.length + 1000}\r\n\r\n${body}`, ' ', 100));
      clients.push(...slowHeaders, ...silent, ...slowBodies);

      // Meanwhile, ordinary requests are answered promptly.
      const latencies: number[] = [];
      const until = Date.now() + limits.requestTimeout + 500;
      while (Date.now() < until) {
        const started = Date.now();
        const answer = await exchange(port, get(`/orgs/${ORG}/organization-roles`, ''));
        expect(answer.status).toBe(200);
        latencies.push(Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(latencies.length).toBeGreaterThan(10);
      expect(Math.max(...latencies)).toBeLessThan(500);

      // The slow ones are closed once their timeout passes: a 408 with the error body while
      // the headers are still coming; a bare close once the app holds the request.
      const grace = 1_500;
      for (const client of [...slowHeaders, ...silent]) {
        const { received, afterMs } = await client.closed;
        expect(afterMs).toBeGreaterThanOrEqual(limits.headersTimeout - 100);
        expect(afterMs).toBeLessThan(limits.headersTimeout + grace);
        const answer = parseAnswer(received);
        expect({ status: answer.status, problems: errorBodyProblems({ status: answer.status!, headers: answer.headers, body: JSON.parse(answer.body) }) }).toEqual({ status: 408, problems: [] });
      }
      for (const client of slowBodies) {
        const { received, afterMs } = await client.closed;
        expect(afterMs).toBeGreaterThanOrEqual(limits.requestTimeout - 100);
        expect(afterMs).toBeLessThan(limits.requestTimeout + grace);
        expect(received === '' || received.startsWith('HTTP/1.1 408 ')).toBe(true);
      }
      // No partial request was acted on.
      expect(await hashTables(t.db.knex)).toEqual(before);
    } finally {
      for (const client of clients) client.stop();
      server.close();
    }
  });
});
