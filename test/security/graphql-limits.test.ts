import 'reflect-metadata'; // src/graphql/limits loads type-graphql classes
import fs from 'node:fs';
import path from 'node:path';
import depthLimit from 'graphql-depth-limit';
import { Lexer, Source, TokenKind, buildSchema, parse, validate } from 'graphql';
import { MAX_ALIASES, MAX_COMPLEXITY, MAX_DEPTH, MAX_DIRECTIVES, MAX_TOKENS } from '../../src/graphql/limits';
import { gql, type GraphQLResponse } from '../helpers/graphql';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { hashTables } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issue 8, GraphQL limits at their boundaries: a document exactly at a limit runs; one unit
// over is refused with a 400 naming the limit, before anything runs. The documents are
// mutations, so "nothing ran" is visible: the refused ones would assign alice to
// acme-corp/api alert 1, and every table is compared before and after.

const SCHEMA = buildSchema(fs.readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));

/** Replaces alert 1's assignees with `assignee`, then selects `selection` on the alert. */
const mutation = (selection: string, assignee: string, fragments = '') =>
  `mutation { updateDependencyAlert(input: {owner: "acme-corp", repository: "api", number: 1, assignees: ["${assignee}"]}) { dependencyAlert { ${selection} } } }${fragments}`;
/** Within the limits: changes nothing in the demo world, where bob is already the assignee. */
const AT_LIMIT = 'bob';
/** Would change the alert if it ran. */
const OVER_LIMIT = 'alice';

function tokenCount(document: string): number {
  const lexer = new Lexer(new Source(document));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

/** The depth graphql-depth-limit gives the document's operation. */
function depthOf(document: string): number {
  let depth = -1;
  validate(SCHEMA, parse(document), [depthLimit(Number.MAX_SAFE_INTEGER, {}, (depths: Record<string, number>) => (depth = Math.max(...Object.values(depths))))]);
  return depth;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
});
afterAll(() => t.close());

const run = (document: string) => gql(t, document, { token: DEMO_OWNER_TOKEN });

async function expectRuns(document: string): Promise<void> {
  const res = await run(document);
  expect({ status: res.status, errors: res.errors }).toEqual({ status: 200, errors: undefined });
  expect(res.data.updateDependencyAlert.dependencyAlert).toBeDefined();
}

async function expectRefused(document: string, expected: { message: string | RegExp; code: string }): Promise<GraphQLResponse> {
  const before = await hashTables(t.db.knex);
  const res = await run(document);
  // 200: the client takes application/json, which learns of a refused document from the errors (legacy-json-statuses.plugin.ts).
  expect({ status: res.status, data: res.data, count: res.errors?.length }).toEqual({ status: 200, data: undefined, count: 1 });
  expect(res.errors![0]!.message).toMatch(expected.message);
  expect(res.errors![0]!.extensions.code).toBe(expected.code);
  expect(await hashTables(t.db.knex)).toEqual(before);
  return res;
}

it(`runs an operation ${MAX_DEPTH} levels deep; one level more is refused`, async () => {
  // repository → dependencyAlert → repository → …, one level a step, ending on a scalar.
  const chain = (steps: number, assignee: string) => {
    const names = Array.from({ length: steps }, (_, i) => (i % 2 === 0 ? 'repository' : 'dependencyAlert(number: 1)'));
    const leaf = steps % 2 === 0 ? 'number' : 'name';
    return mutation(`${names.map((n) => `${n} { `).join('')}${leaf}${' }'.repeat(steps)}`, assignee);
  };
  const steps = Array.from({ length: 3 * MAX_DEPTH }, (_, s) => s).find((s) => depthOf(chain(s, AT_LIMIT)) === MAX_DEPTH)!;
  expect(depthOf(chain(steps + 1, OVER_LIMIT))).toBe(MAX_DEPTH + 1);
  await expectRuns(chain(steps, AT_LIMIT));
  await expectRefused(chain(steps + 1, OVER_LIMIT), { message: `The anonymous operation exceeds the maximum depth of ${MAX_DEPTH}.`, code: 'GRAPHQL_VALIDATION_FAILED' });
});

it(`runs an operation with ${MAX_ALIASES} aliases; one more is refused`, async () => {
  const aliased = (count: number) => Array.from({ length: count }, (_, i) => `a${i}: number`).join(' ');
  await expectRuns(mutation(aliased(MAX_ALIASES), AT_LIMIT));
  await expectRefused(mutation(aliased(MAX_ALIASES + 1), OVER_LIMIT), { message: `The query uses more than ${MAX_ALIASES} aliases.`, code: 'GRAPHQL_VALIDATION_FAILED' });
});

it(`runs an operation with ${MAX_DIRECTIVES} directives, fragments counted where spread; one more is refused`, async () => {
  // Ten of them in a fragment spread twice: each spread counts.
  const inFragment = 10;
  const fragment = `fragment Included on DependencyAlert { ${Array.from({ length: inFragment }, () => 'number @include(if: true)').join(' ')} }`;
  const fields = (count: number) => Array.from({ length: count }, () => 'state @skip(if: false)').join(' ');
  const document = (extra: number, assignee: string) => mutation(`...Included ...Included ${fields(MAX_DIRECTIVES - 2 * inFragment + extra)}`, assignee, ` ${fragment}`);
  await expectRuns(document(0, AT_LIMIT));
  await expectRefused(document(1, OVER_LIMIT), { message: `The query uses more than ${MAX_DIRECTIVES} directives.`, code: 'GRAPHQL_VALIDATION_FAILED' });
});

it(`runs a document of ${MAX_TOKENS} tokens; one more is refused before it is parsed`, async () => {
  // Spreads of one fragment pad the document (two tokens each) without adding work.
  const fragment = ' fragment Padding on DependencyAlert { number }';
  const document = (tokens: number, assignee: string) => {
    const bare = tokenCount(mutation('...Padding', assignee, fragment));
    const spreads = Math.floor((tokens - bare) / 2);
    const odd = (tokens - bare) % 2 === 1 ? ' state' : '';
    const padded = mutation(`...Padding${' ...Padding'.repeat(spreads)}${odd}`, assignee, fragment);
    expect(tokenCount(padded)).toBe(tokens);
    return padded;
  };
  await expectRuns(document(MAX_TOKENS, AT_LIMIT));
  // graphql-js's own message (16.x spells it "more that").
  await expectRefused(document(MAX_TOKENS + 1, OVER_LIMIT), { message: new RegExp(`^Syntax Error: Document contains more tha[nt] ${MAX_TOKENS} tokens\\. Parsing aborted\\.$`), code: 'GRAPHQL_PARSE_FAILED' });
});

it(`runs an operation whose cost is within ${MAX_COMPLEXITY}; the next page size up is refused with its cost`, async () => {
  // Nested connections cost their children times the page size each asks for.
  const nested = (inner: number, assignee: string) =>
    mutation(`repository { dependencyAlerts(first: 100) { edges { node { repository { dependencyAlerts(first: ${inner}) { edges { node { number } } } } } } } }`, assignee);
  const isRefused = async (inner: number) => (await run(nested(inner, AT_LIMIT))).errors?.some((e) => e.extensions.code === 'QUERY_TOO_COMPLEX') ?? false;
  // The largest inner page size the limit lets through, by bisection over 1..100.
  let [low, high] = [1, 100];
  expect([await isRefused(low), await isRefused(high)]).toEqual([false, true]);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await isRefused(middle)) high = middle;
    else low = middle;
  }
  await expectRuns(nested(low, AT_LIMIT));
  const refused = await expectRefused(nested(high, OVER_LIMIT), { message: /^The query is too complex: its cost is \d+, the limit is \d+\./, code: 'QUERY_TOO_COMPLEX' });
  const cost = Number(/its cost is (\d+)/.exec(refused.errors![0]!.message)![1]);
  expect(cost).toBeGreaterThan(MAX_COMPLEXITY);
});
