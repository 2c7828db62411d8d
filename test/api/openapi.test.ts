import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { OPERATIONS as CATALOGUE, OPERATION_LIST } from '../../src/operations';
import { OpenApiValidator, assertDocumented } from '../helpers/openapi-validator';
import { DEMO_OWNER_TOKEN, OPERATIONS, demoWorld, recordDemoDeliveries, type Operation } from '../helpers/operations';
import { sendOperation, sendToMissingOwner, type SendOverrides } from '../helpers/send-operation';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { USER_TEXT_LEAKS } from '../helpers/user-text';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

let t: TestApp;
let document: Record<string, unknown>;
let validator: OpenApiValidator;
let workDir: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  await recordDemoDeliveries(t.db.knex);
  const res = await t.http().get('/openapi.json');
  document = res.body;
  validator = new OpenApiValidator(document);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-openapi-'));
  fs.writeFileSync(path.join(workDir, 'openapi.json'), JSON.stringify(document, null, 2));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const send = (operation: Operation, token: string | null, overrides?: SendOverrides) => sendOperation(t, operation, token, overrides);

describe('GET /openapi.json', () => {
  it('answers an OpenAPI 3.1 document without a token', async () => {
    const res = await t.http().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect((await t.http().get('/api/v3/openapi.json')).body).toEqual(res.body); // the enterprise-server layout too
  });

  it('describes exactly the operations of the catalogue (the spec\'s 27 and Part 2\'s), with their grants', () => {
    const expected = OPERATION_LIST.map((entry) => entry.operationId).sort();
    expect(validator.operationIds().sort()).toEqual(expected);
    expect(OPERATION_LIST.filter((entry) => entry.number <= 27)).toHaveLength(27);
    for (const op of OPERATIONS) {
      const described = (document.paths as Record<string, Record<string, Record<string, unknown>>>)[op.path]?.[op.method.toLowerCase()];
      expect(described?.operationId).toBe(CATALOGUE[op.name].operationId);
      expect(described?.['x-oauth-scopes']).toEqual([...CATALOGUE[op.name].requirement.scopes]);
      expect(Object.keys(described?.responses as object)).toContain(String(op.success[0]));
    }
  });

  it('gives each operation\'s rules after its grant text, as a Markdown list', () => {
    const withRules = OPERATION_LIST.filter((entry) => entry.docs.rules?.length);
    expect(withRules.length).toBeGreaterThan(20);
    for (const entry of OPERATION_LIST) {
      const described = (document.paths as Record<string, Record<string, { description: string }>>)[entry.path]![entry.method]!;
      const list = (entry.docs.rules ?? []).map((rule) => `- ${rule}`).join('\n');
      expect(described.description).toMatch(/^\*\*(Classic\/OAuth scope|No token needed):\*\* /);
      if (!list) {
        expect(described.description).not.toContain('\n- ');
        continue;
      }
      expect(described.description.endsWith(`\n\n${list}`)).toBe(true);
      // The grant text comes first, whole: the list starts after its last line.
      expect(described.description.slice(0, -list.length - 2)).toMatch(/\*\*Who may call:\*\* [^\n]+\.(\n\nCallable without a token [^\n]+\.)?$/);
    }
  });

  it('takes its request shapes from the schemas the routes validate with', () => {
    const paths = document.paths as Record<string, Record<string, { parameters: Array<Record<string, unknown>>; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
    const patch = paths['/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}']!.patch!;
    expect(patch.requestBody!.content['application/json']!.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        state: { type: 'string', enum: ['dismissed', 'open'] },
        dismissed_reason: { enum: ['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk'] },
        dismissed_comment: { anyOf: [{ type: 'string', maxLength: 280 }, { type: 'null' }] },
        assignees: { type: 'array', maxItems: 10 },
      },
    });
    const teams = paths['/orgs/{org}/organization-roles/{role_id}/teams']!.get!.parameters;
    expect(teams).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'role_id', in: 'path', required: true, schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,15})$' } }),
      expect.objectContaining({ name: 'per_page', in: 'query', required: false, schema: expect.objectContaining({ default: '30' }) }),
    ]));
  });

  it('passes redocly lint', async () => {
    const result = await run(bin('redocly'), ['lint', path.join(workDir, 'openapi.json'), '--config', path.join(ROOT, 'test', 'redocly.yaml')], { cwd: ROOT })
      .catch((error: { stdout: string; stderr: string }) => ({ ...error, failed: true }));
    const output = `${result.stdout}${result.stderr}`;
    expect({ failed: 'failed' in result, output }).toEqual({ failed: false, output: expect.stringContaining('Woohoo! Your API description is valid') });
    expect(output).not.toMatch(/You have \d+ warnings?/);
  }, 60_000);

  it('generates TypeScript types with openapi-typescript that compile', async () => {
    const out = path.join(workDir, 'orgsec.d.ts');
    await run(bin('openapi-typescript'), [path.join(workDir, 'openapi.json'), '-o', out], { cwd: ROOT });
    const types = fs.readFileSync(out, 'utf8');
    expect(types).toContain('"dependency-bot/update-alert"');
    expect(types).toContain('DependencyAlertWithRepository');
    await run(bin('tsc'), ['--noEmit', '--strict', '--skipLibCheck', out], { cwd: ROOT });
  }, 60_000);
});

describe('real responses match the description', () => {
  // In order: each sample is valid in the demo world after the ones before it.
  it('every operation\'s success answer, and a 304 for every read', async () => {
    const seen = new Set<string>();
    for (const op of OPERATIONS) {
      const res = await send(op, DEMO_OWNER_TOKEN);
      expect({ op: op.number, status: res.status }).toEqual({ op: op.number, status: op.success[0] });
      seen.add(assertDocumented(validator, res));
      // A streamed document (catalogue `streamed`) has no ETag to match.
      if (op.method === 'GET' && !CATALOGUE[op.name].streamed) {
        const again = await send(op, DEMO_OWNER_TOKEN, { headers: { 'If-None-Match': String(res.headers.etag) } });
        expect({ op: op.number, status: again.status }).toEqual({ op: op.number, status: 304 });
        assertDocumented(validator, again);
      }
    }
    expect(seen.size).toBe(OPERATION_LIST.length);
  });

  it('401 for bad credentials on every operation', async () => {
    for (const op of OPERATIONS) {
      const res = await send(op, 'svc_not_a_real_token');
      expect({ op: op.number, status: res.status }).toEqual({ op: op.number, status: 401 });
      assertDocumented(validator, res);
    }
  });

  it('403 or 404 for a token that does not grant the operation, on every operation (public reads aside)', async () => {
    const statuses = new Set<number>();
    for (const op of OPERATIONS) {
      // Fine-grained, limited to the enterprise acme and its administration.
      const token = op.path.startsWith('/enterprises/') ? 'svc_demo_alice_fine_grained' : 'svc_demo_alice_enterprise';
      const res = await send(op, token);
      // #19 and #22 answer anyone on a public repository (spec §5); public reference data answers everyone.
      const { requirement } = CATALOGUE[op.name];
      const allowed = requirement.target === 'public' ? [200] : requirement.publicRead === true ? [200, 403, 404] : [403, 404];
      expect({ op: op.number, allowed: allowed.includes(res.status) }).toEqual({ op: op.number, allowed: true });
      statuses.add(res.status);
      assertDocumented(validator, res);
    }
    expect(statuses).toContain(403);
  });

  it('404 for a missing owner on every operation (public reference data has none), whose documentation_url opens that operation in /docs', async () => {
    for (const op of OPERATIONS.filter((o) => CATALOGUE[o.name].requirement.target !== 'public')) {
      const res = await sendToMissingOwner(t, op, DEMO_OWNER_TOKEN);
      expect({ op: op.number, status: res.status }).toEqual({ op: op.number, status: 404 });
      assertDocumented(validator, res);
      // Swagger UI's deep link, #/{tag}/{operationId}, each segment encoded (test/e2e/browser.test.ts opens them).
      const { operationId } = CATALOGUE[op.name];
      const tag = validator.tagOf(op.method, op.path);
      expect(res.body.documentation_url).toBe(`${t.url}/docs/#/${tag}/${encodeURIComponent(operationId)}`);
    }
    const enterpriseLayout = await t.http().get('/api/v3/orgs/no-such-owner-anywhere/organization-roles').set(bearer(DEMO_OWNER_TOKEN));
    expect(enterpriseLayout.body.documentation_url).toBe(`${t.url}/api/v3/docs/#/organization-roles/orgs%2Flist-org-roles`);
  });

  it('400 or 422 for invalid input on every operation that takes a body or a checked parameter', async () => {
    const BAD_PARAMS: Record<string, string> = { role_id: 'x', alert_number: '0', subject_digest: 'sha1:abc', custom_property_name: 'not valid!' };
    let checked = 0;
    for (const op of OPERATIONS) {
      const bad = Object.keys(op.sample.params).find((name) => name in BAD_PARAMS);
      const overrides = op.bodyKeys.length > 0 ? { body: { no_such_key: true } } : bad ? { params: { [bad]: BAD_PARAMS[bad]! } } : null;
      if (!overrides) continue;
      const res = await send(op, DEMO_OWNER_TOKEN, overrides);
      expect({ op: op.number, status: [400, 422].includes(res.status) }).toEqual({ op: op.number, status: true });
      assertDocumented(validator, res);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('409 when an alert is dismissed twice', async () => {
    const op = OPERATIONS.find((o) => o.name === 'updateDependencyAlert')!;
    const dismiss = { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'checked' };
    const first = await send(op, DEMO_OWNER_TOKEN, { body: dismiss });
    expect(first.status).toBe(200);
    expect(first.body.dismissed_by).toMatchObject({ login: 'alice' });
    assertDocumented(validator, first);
    const second = await send(op, DEMO_OWNER_TOKEN, { body: dismiss });
    expect(second.status).toBe(409);
    assertDocumented(validator, second);
  });

  it('a response that does not match its description fails', () => {
    expect(() => validator.check({ method: 'GET', path: '/repos/a/b/dependency-bot/alerts/1', status: 200, body: { number: 1 } })).toThrow(/does not match/);
    expect(() => validator.check({ method: 'GET', path: '/orgs/a/organization-roles', status: 418, body: {} })).toThrow(/does not document/);
    expect(() => validator.check({ method: 'GET', path: '/nowhere', status: 200, body: {} })).toThrow(/no documented operation/);
  });
});

it('speaks to users: no spec section or operation numbers, no files they do not have', async () => {
  expect(JSON.stringify(document)).not.toMatch(USER_TEXT_LEAKS);
  const tags = document.tags as Array<{ name: string; description: string }>;
  expect(tags.map((tag) => tag.name)).toEqual(['organization-roles', 'oidc', 'attestations', 'dependency-alerts', 'advisories', 'dependency-graph', 'auto-triage', 'webhooks', 'audit-log']);
  for (const tag of tags) expect(tag.description.length).toBeGreaterThan(40);
  for (const page of ['/docs/', '/graphiql/', '/graphql']) {
    const res = await t.http().get(page).set('Accept', 'text/html');
    expect({ page, status: res.status }).toEqual({ page, status: 200 });
    expect(res.text).not.toMatch(USER_TEXT_LEAKS);
  }
});

describe('GET /docs', () => {
  it('serves Swagger UI from the package, pointed at /openapi.json', async () => {
    expect((await t.http().get('/docs')).headers.location).toBe('/docs/');
    expect((await t.http().get('/api/v3/docs')).headers.location).toBe('/api/v3/docs/');
    expect((await t.http().get('/api/v3/docs/swagger-ui.css')).status).toBe(200);
    const page = await t.http().get('/docs/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script src="./swagger-ui-bundle.js"></script>');
    expect(page.text).not.toMatch(/https?:\/\//);
    const init = await t.http().get('/docs/docs-initializer.js');
    expect(init.text).toContain("new URL('../openapi.json', window.location.href)");
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css']) {
      const res = await t.http().get(`/docs/${asset}`);
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
  });
});
