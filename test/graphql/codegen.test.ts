import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { GraphQLObjectType, GraphQLSchema, buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, print, printSchema } from 'graphql';
import ts from 'typescript';
import { linksOf, pathOf } from '../helpers/links';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 9: a GraphQL client as users build one. graphql-codegen's client preset turns a
// dashboard query (codegen/dashboard.graphql) into typed operations from the committed
// schema.graphql; the generated code typechecks with a consumer (and a misuse does not);
// the generated document runs against the server and answers what REST (#24) answers.

// @graphql-codegen/cli's CommonJS build require()s ES-only packages (yargs, auto-bind), which
// plain Node 20 allows and jest does not: load the ES builds through import(), and hand
// codegen the client preset module itself rather than the name 'client' (which it would require()).
let generate: (typeof import('@graphql-codegen/cli', { with: { 'resolution-mode': 'import' } }))['generate'];
let clientPreset: unknown;

const ROOT = path.join(__dirname, '..', '..');
const SCHEMA = path.join(ROOT, 'schema.graphql');
const DOCUMENT = path.join(__dirname, 'codegen', 'dashboard.graphql');
const ORG = 'acme-corp';

/** The codegen configuration the README shows, with paths made absolute. */
const codegenConfig = (out: string) => ({
  schema: SCHEMA,
  documents: [DOCUMENT],
  generates: { [`${out}/`]: { preset: clientPreset as any, config: { scalars: { DateTime: 'string', JSON: 'unknown' }, useTypeImports: true } } },
  silent: true,
});

// What a dashboard does with the result: rows from the typed data, variables typed from the document.
const CONSUMER = `
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { OrganizationAlertsDashboardDocument } from './generated/graphql';

type Dashboard = ResultOf<typeof OrganizationAlertsDashboardDocument>;
export const variables: VariablesOf<typeof OrganizationAlertsDashboardDocument> = {
  login: 'acme-corp', first: 2, states: ['OPEN'], severities: ['HIGH', 'CRITICAL'], sort: 'EPSS_PERCENTAGE',
};
export function rows(data: Dashboard): string[] {
  const edges = data.organization?.dependencyAlerts?.edges ?? [];
  return edges.map(({ node }) => [
    \`\${node.repository.nameWithOwner}#\${node.number}\`, node.securityAdvisory.severity,
    node.securityAdvisory.epss?.percentage.toFixed(3) ?? '-', node.createdAt.slice(0, 10),
    node.securityVulnerability?.firstPatchedVersion ?? 'no patch', node.assignees.map((a) => a.login).join(','),
  ].join(' '));
}
`;

// The same consumer getting three things wrong; each must be a type error.
const MISUSE = `
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';
import { OrganizationAlertsDashboardDocument } from './generated/graphql';

type Dashboard = ResultOf<typeof OrganizationAlertsDashboardDocument>;
export const variables: VariablesOf<typeof OrganizationAlertsDashboardDocument> = { login: 'acme-corp', first: 2, states: ['open'] };
export function rows(data: Dashboard): string[] {
  return data.organization!.dependencyAlerts!.edges.map(({ node }) => \`\${node.severity} \${node.securityAdvisory.epss.percentage}\`);
}
`;

interface Compiled {
  diagnostics: Record<string, string[]>;
  outDir: string;
}

/** Typechecks (strict) and emits CommonJS for every .ts file under dir, as a client build would. */
function compile(dir: string): Compiled {
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
  const outDir = path.join(dir, 'dist');
  const program = ts.createProgram(files, {
    strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
    skipLibCheck: true, types: [], outDir, rootDir: dir,
    // The temporary directory has no node_modules of its own: resolve packages from the project's.
    baseUrl: ROOT, paths: { '*': ['node_modules/*'] },
  });
  const diagnostics: Record<string, string[]> = {};
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file ? path.relative(dir, d.file.fileName) : '(global)';
    (diagnostics[file] ??= []).push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  program.emit();
  return { diagnostics, outDir };
}

let t: TestApp;
let tmp: string;
let generated: string;
let compiled: Compiled;

beforeAll(async () => {
  [{ generate }, { preset: clientPreset }] = await Promise.all([import('@graphql-codegen/cli'), import('@graphql-codegen/client-preset')]);
  t = await createTestApp();
  await t.services.world.load(demoWorld(), { replace: true });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-codegen-'));
  generated = path.join(tmp, 'generated');
  await generate(codegenConfig(generated), true);
  fs.writeFileSync(path.join(tmp, 'consumer.ts'), CONSUMER);
  fs.writeFileSync(path.join(tmp, 'misuse.ts'), MISUSE);
  compiled = compile(tmp);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A subgraph's own additions (issue 38: `_service`, `_entities`, `_Any`, `_Entity`, Federation's directives and types), which a supergraph's clients never see. */
const isFederations = (name: string) => name.startsWith('_') || name.startsWith('link__') || name.startsWith('federation__') || ['link', 'key'].includes(name);

function withoutFederation(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  const query = config.query!.toConfig();
  const cleanQuery = new GraphQLObjectType({ ...query, fields: Object.fromEntries(Object.entries(query.fields).filter(([name]) => !isFederations(name))) });
  return new GraphQLSchema({
    ...config,
    query: cleanQuery,
    types: config.types.filter((type) => !isFederations(type.name) && type.name !== 'Query'),
    directives: config.directives.filter((directive) => !isFederations(directive.name)),
  });
}

it('schema.graphql is the graph the running server introspects, without what Federation adds to a subgraph (codegen reads the committed file)', async () => {
  const res = await t.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN)).send({ query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true }) });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  const introspected = buildClientSchema(res.body.data);
  expect(Object.keys(introspected.getQueryType()!.getFields()).filter(isFederations).sort()).toEqual(['_entities', '_service']);
  const served = printSchema(lexicographicSortSchema(withoutFederation(introspected)));
  const committed = printSchema(lexicographicSortSchema(buildSchema(fs.readFileSync(SCHEMA, 'utf8'))));
  expect(served).toBe(committed);
});

it('the client preset generates the typed dashboard document', () => {
  expect(fs.readdirSync(generated).sort()).toEqual(['fragment-masking.ts', 'gql.ts', 'graphql.ts', 'index.ts']);
  const source = fs.readFileSync(path.join(generated, 'graphql.ts'), 'utf8');
  expect(source).toContain('export type OrganizationAlertsDashboardQuery = ');
  expect(source).toContain('export type OrganizationAlertsDashboardQueryVariables = ');
  expect(source).toMatch(/export const OrganizationAlertsDashboardDocument = \{.*\} as unknown as DocumentNode<OrganizationAlertsDashboardQuery, OrganizationAlertsDashboardQueryVariables>;/);
});

it('a document naming a field the schema lacks fails generation', async () => {
  const broken = path.join(tmp, 'broken.graphql');
  fs.writeFileSync(broken, 'query Broken { organization(login: "acme-corp") { dependencyAlerts(first: 1) { edges { node { severity } } } } }');
  await expect(generate({ ...codegenConfig(path.join(tmp, 'broken')), documents: [broken] }, false)).rejects.toThrow(/Cannot query field "severity" on type "DependencyAlert"/);
});

it('the generated code typechecks with a consumer, and a field misuse does not', () => {
  const { diagnostics } = compiled;
  expect(Object.keys(diagnostics)).toEqual(['misuse.ts']);
  const misuse = diagnostics['misuse.ts'] ?? [];
  const errors = misuse.join('\n');
  expect(errors).toMatch(/Type '"open"' is not assignable to type 'DependencyAlertState'/);
  expect(errors).toMatch(/Property 'severity' does not exist on type/);
  expect(errors).toMatch(/'node\.securityAdvisory\.epss' is possibly 'null'/);
  expect(misuse).toHaveLength(3);
});

describe('the generated document against the running server', () => {
  type Document = TypedDocumentNode<any, Record<string, unknown>>;
  let document: Document;
  beforeAll(() => {
    // What the client build emitted (CommonJS), not the TypeScript source.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    document = require(path.join(compiled.outDir, 'generated', 'graphql.js')).OrganizationAlertsDashboardDocument;
  });

  const filters = { states: ['OPEN'], severities: ['HIGH', 'CRITICAL'], sort: 'EPSS_PERCENTAGE', direction: 'DESC' };
  const restFilters = 'state=open&severity=high,critical&sort=epss_percentage&direction=desc';

  /** A REST #24 alert in the shape the dashboard query selects. */
  const asDashboardNode = (a: any) => ({
    number: a.number,
    state: a.state.toUpperCase(),
    url: a.url,
    createdAt: a.created_at,  // compared as instants below: GraphQL's DateTime carries milliseconds
    dependency: {
      package: { ecosystem: a.dependency.package.ecosystem.toUpperCase(), name: a.dependency.package.name },
      manifestPath: a.dependency.manifest_path, scope: a.dependency.scope.toUpperCase(), relationship: a.dependency.relationship.toUpperCase(),
    },
    securityAdvisory: {
      svcsaId: a.security_advisory.svcsa_id, severity: a.security_advisory.severity.toUpperCase(), summary: a.security_advisory.summary,
      epss: a.security_advisory.epss === null ? null : { percentage: a.security_advisory.epss.percentage },
    },
    securityVulnerability: a.security_vulnerability === null ? null : {
      vulnerableVersionRange: a.security_vulnerability.vulnerable_version_range,
      firstPatchedVersion: a.security_vulnerability.first_patched_version?.identifier ?? null,
    },
    repository: { nameWithOwner: a.repository.full_name, isPrivate: a.repository.private },
    assignees: a.assignees.map((u: any) => ({ login: u.login })),
  });

  it('pages through the filtered alerts exactly as REST #24 does, with the same cursors', async () => {
    const graphqlPages: any[] = [];
    let after: string | null = null;
    do {
      const res: { status: number; body: any } = await t.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN))
        .send({ query: print(document), variables: { login: ORG, first: 2, after, ...filters } });
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      const connection: any = res.body.data.organization.dependencyAlerts;
      graphqlPages.push(connection);
      after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    } while (after !== null);

    const restPages: Array<{ alerts: any[]; nextAfter: string | null }> = [];
    let next: string | undefined = `/orgs/${ORG}/dependency-bot/alerts?${restFilters}&per_page=2`;
    while (next) {
      const res: { status: number; body: any; headers: Record<string, string> } = await t.http().get(next).set(bearer(DEMO_OWNER_TOKEN));
      expect(res.status).toBe(200);
      const link: string | undefined = linksOf(res.headers.link).next;
      restPages.push({ alerts: res.body, nextAfter: link ? new URL(link).searchParams.get('after') : null });
      next = link ? pathOf(link) : undefined;
    }

    expect(graphqlPages.length).toBeGreaterThan(1);
    const instants = (node: any) => ({ ...node, createdAt: new Date(node.createdAt).toISOString() });
    expect(graphqlPages.map((p) => p.edges.map((e: any) => instants(e.node)))).toEqual(restPages.map((p) => p.alerts.map((a) => instants(asDashboardNode(a)))));
    expect(graphqlPages.map((p) => (p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null))).toEqual(restPages.map((p) => p.nextAfter));
    const total = restPages.flatMap((p) => p.alerts).length;
    expect(graphqlPages.map((p) => p.totalCount)).toEqual(graphqlPages.map(() => total));
  });
});
