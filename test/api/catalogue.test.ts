import fs from 'node:fs';
import path from 'node:path';
import { OPERATION_LIST, type Operation, type OperationName } from '../../src/operations';
import { operationFragment } from '../../src/openapi/deep-link';
import { fillPath, paramNames } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';

// The catalogue (src/operations) is the one list of operations: every entry is served by a
// route and described in /openapi.json, and no module route exists outside it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Values that pass every path parameter's schema (nothing they name exists). */
const PROBE_VALUES: Record<string, string> = {
  role_id: '1', alert_number: '1', attestation_id: '1', subject_digest: `sha256:${'0'.repeat(64)}`, custom_property_name: 'probe',
};
const probeUrl = (template: string) => fillPath(template, Object.fromEntries(paramNames(template).map((name) => [name, PROBE_VALUES[name] ?? 'no-such-owner'])));

/** Every URL template the catalogue registers, with the operation that answers it. */
const TEMPLATES = OPERATION_LIST.flatMap((entry) => [
  { name: entry.name, entry, method: entry.method, template: entry.path },
  ...(entry.aliases ?? []).map((alias) => ({ name: entry.name, entry, method: entry.method, template: alias })),
  ...Object.values(entry.linked ?? {}).map((linked) => ({ name: entry.name, entry, method: 'get' as const, template: linked })),
]);

describe('every template of the catalogue is routed to its operation', () => {
  it.each(TEMPLATES.map((row) => [`#${row.entry.number} ${row.method.toUpperCase()} ${row.template}`, row] as const))('%s', async (_title, { name, entry, method, template }) => {
    for (const prefix of ['', '/api/v3']) {
      // Anonymous: refused (or not found) by the operation itself, never by the unknown-route 404;
      // public reference data may answer (its probe names nothing, so a read by id is still a 404).
      const res = await t.http()[method](`${prefix}${probeUrl(template)}`);
      const docs = `${t.url}${prefix}/docs/${operationFragment(name)}`;
      const served = entry.requirement.target === 'public' && res.status === 200;
      expect({ name, status: served || res.status >= 400, scopes: res.headers['x-accepted-oauth-scopes'], docs: served ? docs : res.body.documentation_url }).toEqual({
        name,
        status: true,
        scopes: [...entry.requirement.scopes, ...(entry.requirement.publicScopes ?? [])].join(', '),
        docs,
      });
    }
  });

  it('answers a path outside it with the unknown-route 404, which names no operation', async () => {
    const res = await t.http().get('/orgs/acme/no-such-collection');
    expect(res.status).toBe(404);
    expect(res.headers['x-accepted-oauth-scopes']).toBeUndefined();
    expect(res.body.documentation_url).toBe(`${t.url}/docs/`);
  });
});

it('describes every entry in /openapi.json as the catalogue says', async () => {
  const document = (await t.http().get('/openapi.json')).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
  for (const entry of OPERATION_LIST) {
    expect({ name: entry.name, described: document.paths[entry.path]?.[entry.method] }).toEqual({
      name: entry.name,
      described: expect.objectContaining({ operationId: entry.operationId, summary: entry.docs.summary, tags: [entry.docs.tag], 'x-caller': entry.requirement.caller }),
    });
    expect(Object.keys(document.paths[entry.path]![entry.method]!.responses as object)).toContain(String(entry.success));
  }
  const described = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
  expect(described).toHaveLength(OPERATION_LIST.length);
});

describe('the catalogue', () => {
  it('numbers the spec\'s operations #1 to #27 and Part 2\'s on from 28, each once, with distinct operationIds and routes', () => {
    const numbers = OPERATION_LIST.map((entry) => entry.number);
    expect(numbers).toEqual(Array.from({ length: Math.max(...numbers) }, (_, i) => i + 1));
    expect(OPERATION_LIST.length).toBeGreaterThanOrEqual(27);
    expect(new Set(OPERATION_LIST.map((entry) => entry.operationId)).size).toBe(OPERATION_LIST.length);
    const routes = TEMPLATES.map(({ method, template }) => `${method} ${template.replace(/\{\w+\}/g, '{}')}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(OPERATION_LIST.map((entry) => [entry.name, entry] as const))('%s: the path names exactly the parameters its schema parses', (_name, entry: Operation & { name: OperationName }) => {
    const parsed = Object.keys(entry.request.params.shape).sort();
    expect(paramNames(entry.path).sort()).toEqual(parsed);
    for (const alias of entry.aliases ?? []) expect(paramNames(alias).sort()).toEqual(parsed);
  });
});

it('module routers register operations only through the catalogue (http/operation.ts route and linkedRoute)', () => {
  const modules = path.join(__dirname, '..', '..', 'src', 'modules');
  const routeFiles = fs.readdirSync(modules).flatMap((area) => fs.readdirSync(path.join(modules, area)).filter((file) => file.endsWith('.routes.ts')).map((file) => path.join(modules, area, file)));
  expect(routeFiles.length).toBeGreaterThanOrEqual(4);
  for (const file of routeFiles) {
    const direct = fs.readFileSync(file, 'utf8').match(/\brouter\.(get|post|put|patch|delete|all|use|route)\(/g) ?? [];
    expect({ file: path.basename(file), direct }).toEqual({ file: path.basename(file), direct: [] });
  }
});
