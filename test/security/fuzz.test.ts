import type { Server } from 'node:http';
import fc from 'fast-check';
import { createHttpServer } from '../../src/http/http-server';
import { badRequest, type BadRequest, type FuzzContext } from '../helpers/bad-input';
import { errorBodyProblems } from '../helpers/error-body';
import { linksOf } from '../helpers/links';
import { listenOnLoopback, plainRequest } from '../helpers/raw-http';
import { DEMO_OWNER_TOKEN, OPERATIONS, demoWorld, queryString, type Operation } from '../helpers/operations';
import { hashTables } from '../helpers/table-hash';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 8, bad input: every operation's valid sample request, bent at random in its path
// parameters, query, headers and body. Every answer is either the operation's documented
// success (the bent input happened to be valid) or a 4xx with the documented error body,
// never a 5xx; a rejected request leaves every table exactly as it was.
//
// The seed is fixed so a failure reproduces; FUZZ_SEED=<n> explores others, FUZZ_RUNS=<n>
// runs more per operation.

const SEED = Number(process.env.FUZZ_SEED ?? 8_2026);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 60);

let t: TestApp;
/** The production server (src/http/http-server.ts) over the test app: its limits answer too. */
let server: Server;
let port: number;
let context: FuzzContext;
/** How often each status answered, per operation (FUZZ_STATS=1 prints them). */
let statuses = new Map<number, number>();
/** The tables as the last accepted request left them. */
let tables: Record<string, string>;

/** The `after` and `before` cursors of a real list page's Link header. */
async function cursorsOf(url: string): Promise<string[]> {
  const res = await t.http().get(url).set(bearer(DEMO_OWNER_TOKEN));
  expect(res.status).toBe(200);
  return Object.values(linksOf(res.headers.link as string | undefined)).flatMap((link) => {
    const params = new URL(link).searchParams;
    return [params.get('after'), params.get('before')].filter((c): c is string => c !== null);
  });
}

beforeAll(async () => {
  t = await createTestApp();
  server = createHttpServer(t.app);
  port = await listenOnLoopback(server);
  const world = demoWorld() as Record<string, Array<Record<string, unknown>>>;
  await t.load(world);
  // Cursors of other lists, other sorts and other organizations: valid somewhere, foreign here.
  const cursors = (
    await Promise.all([
      cursorsOf('/orgs/acme-corp/dependency-bot/alerts?per_page=1'),
      cursorsOf('/orgs/acme-corp/dependency-bot/alerts?per_page=2&sort=updated&direction=asc'),
      cursorsOf('/enterprises/acme/dependency-bot/alerts?per_page=1&sort=epss_percentage'),
      cursorsOf('/repos/acme-corp/api/dependency-bot/alerts?per_page=1'),
    ])
  ).flat();
  expect(cursors.length).toBeGreaterThan(3);
  const otherNames = [
    ...world.organizations!.map((o) => String(o.login)),
    ...world.repositories!.map((r) => String(r.name)),
    ...world.users!.map((u) => String(u.login)),
    ...world.teams!.map((team) => String(team.slug)),
    'acme', '138', '8132', '2', '3',
  ];
  context = { cursors, otherNames };
  tables = await hashTables(t.db.knex);
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
}

// Link repeats the request's query up to three times, so a long query makes response
// headers larger than Node's default 16 KiB client limit: read them all here.
const MAX_RESPONSE_HEADER_BYTES = 64 * 1024;

async function send(operation: Operation, bent: BadRequest): Promise<Answer> {
  const headers: Record<string, string> = { ...bearer(DEMO_OWNER_TOKEN), ...bent.headers };
  if (bent.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(bent.body));
  const answer = await plainRequest(port, {
    method: operation.method, path: bent.path + queryString(bent.query), headers, maxHeaderSize: MAX_RESPONSE_HEADER_BYTES, ...(bent.body !== undefined ? { body: bent.body } : {}),
  });
  return { status: answer.status ?? 0, headers: answer.headers, body: answer.json, text: answer.body };
}

/** A request as a short line for a failure message (long values cut). */
function describeRequest(operation: Operation, bent: BadRequest): string {
  const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…(${text.length} chars)` : text);
  return JSON.stringify({ method: operation.method, path: cut(bent.path), query: bent.query.map(([k, v]) => [cut(k), cut(v)]), headers: Object.fromEntries(Object.entries(bent.headers).map(([k, v]) => [k, cut(v)])), body: bent.body === undefined ? undefined : cut(bent.body) });
}

/** What is wrong with the answer to a bent request; empty when it is acceptable. */
async function problemsWith(operation: Operation, res: Answer): Promise<string[]> {
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  if (res.status >= 500) return [`answered ${res.status}: ${res.text.slice(0, 200)}`];
  if (res.status < 400) {
    const documented = operation.success.includes(res.status) || (res.status === 304 && operation.method === 'GET');
    if (!documented) return [`answered ${res.status}, which is not a documented success of #${operation.number}`];
    if (res.status === 304 && res.text !== '') return ['a 304 with a body'];
    // An accepted write may change things: the new state is the baseline for what follows.
    if (operation.method !== 'GET') tables = await hashTables(t.db.knex);
    return [];
  }
  const problems = errorBodyProblems(res);
  const after = await hashTables(t.db.knex);
  const changed = Object.keys(after).filter((table) => after[table] !== tables[table]);
  if (changed.length > 0) problems.push(`a rejected request (${res.status}) changed ${changed.join(', ')}`);
  return problems;
}

describe.each(OPERATIONS.map((operation) => [`#${operation.number} ${operation.name}`, operation] as const))('%s', (_label, operation) => {
  it('answers every bent request with its documented success or a 4xx error body, and a refused one changes nothing', async () => {
    statuses = new Map();
    const run = await fc.check(
      fc.asyncProperty(badRequest(operation, context), async (bent) => {
        const problems = await send(operation, bent).then(
          (res) => problemsWith(operation, res),
          (error: Error) => [`no readable answer: ${error.message}`],
        );
        if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  request: ${describeRequest(operation, bent)}`);
      }),
      // No shrinking: the world changes as requests are accepted, so the first failure is the clearest.
      { seed: SEED + operation.number, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
    // Reported by hand: fast-check's own report prints multi-megabyte counterexamples whole.
    const failure = run.failed ? `seed ${run.seed}, run ${run.numRuns}: ${(run.errorInstance as Error)?.message ?? String(run.errorInstance)}` : undefined;
    expect(failure).toBeUndefined();
    expect(run.numRuns).toBe(RUNS_PER_OPERATION);
    if (process.env.FUZZ_STATS) console.log(`#${operation.number}`, Object.fromEntries(statuses));
    // The bent requests got past routing to the operation's own checks, not only 404s.
    expect([...statuses.keys()].filter((status) => status >= 400 && status !== 404).length).toBeGreaterThanOrEqual(1);
  });
});
