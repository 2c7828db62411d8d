import type { Response } from 'supertest';
import { OPERATIONS as CATALOGUE } from '../../src/operations';
import { AccessOracle, type Target } from '../helpers/access-oracle';
import { OWNED_OPERATION_LIST, SECURITY_OPERATIONS as OPERATIONS, ownedTargetKind, recordMatrixDeliveries, type SecurityOperation as Operation } from '../helpers/security-operations';
import { auditRecordCount, hashTables, lastAuditId } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { CALLERS, TARGETS, actorNameOf, missingTarget, securityWorld, type Caller } from '../helpers/security-world';

// The access matrix of issue 8: every operation of the catalogue (the spec's #1–#27 and Part 2's), for every kind of
// caller, on every kind of target. Each expected status is computed by the oracle from the
// catalogue's requirements and the world file; 404s must be byte-identical to a missing thing.

const world = securityWorld();
const oracle = new AccessOracle(world);
// Headers an answer must not differ in between an invisible thing and a missing one.
const HEADERS_THAT_MATTER = ['content-type', 'content-length', 'vary', 'www-authenticate', 'x-oauth-scopes', 'x-accepted-oauth-scopes', 'x-accepted-service-permissions', 'etag'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  await recordMatrixDeliveries(t.db.knex);
});
afterAll(() => t.close());

async function send(op: Operation, target: Target, caller: Caller): Promise<Response> {
  const request = t.http()[op.method](op.path(target, caller));
  if (caller.header) request.set('Authorization', caller.header);
  return op.body ? request.send(op.body(caller)) : request;
}

/** The missing-thing answer for an operation and caller, fetched once. */
const missingAnswers = new Map<string, Promise<Response>>();
function missingAnswer(op: Operation, caller: Caller): Promise<Response> {
  const key = `${op.name} ${caller.key}`;
  if (!missingAnswers.has(key)) missingAnswers.set(key, send(op, missingTarget(ownedTargetKind(op.name)), caller));
  return missingAnswers.get(key)!;
}

const pick = (res: Response) => ({ status: res.status, text: res.text, headers: Object.fromEntries(HEADERS_THAT_MATTER.map((h) => [h, res.headers[h]])) });

/** What is wrong with one answer, or nothing. */
async function problemsOf(op: Operation, target: Target, caller: Caller, res: Response): Promise<object | undefined> {
  const requirement = CATALOGUE[op.name].requirement;
  const expected = oracle.expect(caller, op.name, target, op.success);
  const got: Record<string, unknown> = { status: res.status };
  const want: Record<string, unknown> = { status: expected.status };
  if (expected.status >= 400) {
    got.body = Object.keys(res.body).sort();
    want.body = ['documentation_url', 'message', 'status'];
  }
  if (expected.status === 401) {
    got.authenticate = res.headers['www-authenticate'];
    want.authenticate = expect.stringMatching(/^Bearer/);
    got.message = res.body.message;
    want.message = caller.refused ? 'Bad credentials' : 'Requires authentication';
  }
  if (expected.status === 404) {
    got.sameAsMissing = pick(res);
    want.sameAsMissing = pick(await missingAnswer(op, caller));
  }
  if (expected.reason === 'grant' && caller.token?.scopes) {
    got.accepted = res.headers['x-accepted-oauth-scopes'];
    want.accepted = [...requirement.scopes, ...('publicScopes' in requirement ? requirement.publicScopes : [])].join(', ');
    got.scopes = res.headers['x-oauth-scopes'];
    want.scopes = caller.token.scopes.join(', ');
  }
  if (expected.status === 403 && caller.token?.permissions) {
    got.accepted = res.headers['x-accepted-service-permissions'];
    want.accepted = expected.reason === 'grant' && requirement.permission ? requirement.permission.join('=') : undefined;
    got.message = res.body.message;
    want.message = expected.reason === 'caller' ? expect.any(String) : `Resource not accessible by ${caller.token.type === 'fine_grained' ? 'personal access token' : 'integration'}`;
  }
  try {
    expect(got).toEqual(want);
    return undefined;
  } catch {
    return { caller: caller.name, reason: expected.reason, got, want };
  }
}

const ROWS = OPERATIONS.flatMap((op) => TARGETS[ownedTargetKind(op.name)].map(({ label, target }) => ({ op, label, target })));

it('covers every operation of the catalogue once, with a body for each that takes one', () => {
  expect(OPERATIONS.map((op) => op.name).sort()).toEqual(OWNED_OPERATION_LIST.map((entry) => entry.name).sort());
  expect(OPERATIONS.filter((op) => op.body).map((op) => op.name).sort()).toEqual(OWNED_OPERATION_LIST.filter((entry) => entry.request.body).map((entry) => entry.name).sort());
});

it('expects every kind of answer somewhere, so no rule goes untried', () => {
  const reasons = new Set(ROWS.flatMap(({ op, target }) => CALLERS.map((caller) => oracle.expect(caller, op.name, target, op.success).reason)));
  expect([...reasons].sort()).toEqual(['allowed', 'caller', 'credentials', 'grant', 'invisible']);
});

/** Sends to every caller in chunks of ten: parallel enough to be quick, few enough to keep SQLite unhurried. */
async function sendAll(op: Operation, target: Target, callers: Caller[]): Promise<object[]> {
  const problems: object[] = [];
  // An operation whose success removes a row sends one caller at a time and puts it back after each.
  const size = op.restore ? 1 : 10;
  for (let i = 0; i < callers.length; i += size) {
    const chunk = callers.slice(i, i + size);
    const answers = await Promise.all(chunk.map((caller) => send(op, target, caller)));
    for (const [j, caller] of chunk.entries()) {
      const problem = await problemsOf(op, target, caller, answers[j]!);
      if (problem) problems.push(problem);
    }
    await op.restore?.(t.db.knex, target);
  }
  return problems;
}

const isRefused = (op: Operation, target: Target, caller: Caller) => oracle.expect(caller, op.name, target, op.success).status >= 400;

describe.each(ROWS.map((row) => [`#${CATALOGUE[row.op.name].number} ${row.op.method.toUpperCase()} on ${row.label}`, row] as const))('%s', (_title, { op, target }) => {
  it('answers every caller as the rules say', async () => {
    if (op.method === 'get') {
      expect(await sendAll(op, target, CALLERS)).toEqual([]);
      return;
    }
    // Writes: the refused callers first, so the tables show that none of them changed anything.
    const refused = CALLERS.filter((c) => isRefused(op, target, c));
    const before = await hashTables(t.db.knex);
    const records = await auditRecordCount(t.db.knex);
    const problems = await sendAll(op, target, refused);
    expect({ problems, tables: await hashTables(t.db.knex), records: await auditRecordCount(t.db.knex) }).toEqual({ problems: [], tables: before, records });
    const allowed = CALLERS.filter((c) => !refused.includes(c));
    const since = await lastAuditId(t.db.knex);
    // The first allowed caller alone: what it changes (but timestamps) is recorded by it; nothing changed, nothing recorded.
    if (allowed[0]) {
      const unchanged = await hashTables(t.db.knex, ['updated_at']);
      const problems = await sendAll(op, target, [allowed[0]]);
      const changed = JSON.stringify(await hashTables(t.db.knex, ['updated_at'])) !== JSON.stringify(unchanged);
      const byCaller = await t.db.knex('audit_log').where('id', '>', since).where('actor', actorNameOf(allowed[0]) ?? 'anonymous').count({ n: '*' }).first();
      expect({ problems, changed, recordedByCaller: Number(byCaller!.n) > 0 }).toEqual({ problems: [], changed, recordedByCaller: changed });
    }
    expect(await sendAll(op, target, allowed.slice(1))).toEqual([]);
    // What the allowed callers changed is recorded by them (and the engine's changes by the engine): never by anyone else.
    const actors = new Set((await t.db.knex('audit_log').where('id', '>', since).distinct('actor')).map((r) => r.actor as string));
    const may = new Set(['dependency-bot[bot]', ...allowed.flatMap((c) => actorNameOf(c) ?? [])]);
    expect([...actors].filter((actor) => !may.has(actor))).toEqual([]);
  });
});


