import 'reflect-metadata'; // src/graphql/limits loads type-graphql classes
import fs from 'node:fs';
import path from 'node:path';
import { AttestationTrust } from '../../src/modules/attestations/attestation-trust';
import { MAX_DEPTH } from '../../src/graphql/limits';
import { gql } from '../helpers/graphql';
import { recordStatements } from '../helpers/statements';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issue 40, what a newcomer to the GraphQL API tripped on, through real HTTP on the demo world:
// connections offer `nodes` beside `edges` (as GitHub's do), the attestation signer's fields are
// camelCase (the snake_case ones deprecated), and a depth error names its operation.

const DEMO = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'db', 'demo-world.json'), 'utf8'));
const ALICE = 'svc_demo_alice_owner';
const REAL_BUNDLE = path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.verifiable.json');
const REAL_DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';

let t: TestApp;
beforeAll(async () => {
  // Full verification, so the real public-good bundle has a signer to show.
  t = await createTestApp({ attestationTrust: new AttestationTrust('full') });
  await t.load(DEMO);
});
afterAll(() => t.close());

describe('connections have nodes', () => {
  /** Each connection by its path in `data`, asked for with both `edges { node { … } }` and `nodes { … }`. */
  const connections: Array<[string, string, string]> = [
    ['organization alerts', '{ organization(login: "acme-corp") { c: dependencyAlerts(first: 5) { SELECTION } } }', 'number state repository { nameWithOwner } assignees { login }'],
    ['repository alerts, from the end', '{ repository(owner: "acme-corp", name: "api") { c: dependencyAlerts(last: 2) { SELECTION } } }', 'number'],
    ['global advisories', '{ c: securityAdvisories(first: 3) { SELECTION } }', 'svcsaId severity'],
    ['repository dependencies', '{ repository(owner: "acme-labs", name: "prototype") { c: dependencies(first: 10) { SELECTION } } }', 'packageUrl relationship'],
    ['organization webhooks', '{ organization(login: "acme-corp") { c: webhooks { SELECTION } } }', 'id name events'],
    ['repository webhooks', '{ repository(owner: "acme-corp", name: "api") { c: webhooks { SELECTION } } }', 'id url'],
    ['role teams', '{ organization(login: "acme-corp") { organizationRoles { c: teams { SELECTION } } } }', 'slug'],
    ['role users', '{ organization(login: "acme-corp") { organizationRoles { c: users { SELECTION } } } }', 'login'],
    ['attestations', '{ repository(owner: "acme-corp", name: "web") { c: attestations(subjectDigest: "DIGEST", first: 5) { SELECTION } } }', 'databaseId predicateType'],
    ['the audit log', '{ organization(login: "acme-corp") { c: auditLog(first: 5) { SELECTION } } }', 'documentId action'],
  ];

  /** Every connection object under `c` keys in the answer (several where the path goes through a list). */
  function connectionsIn(value: unknown): Array<{ edges: Array<{ node: unknown }>; nodes: unknown[] }> {
    if (Array.isArray(value)) return value.flatMap(connectionsIn);
    if (value === null || typeof value !== 'object') return [];
    return Object.entries(value).flatMap(([key, inner]) => (key === 'c' && inner !== null ? [inner as never] : connectionsIn(inner)));
  }

  it.each(connections)('%s: nodes are the edges\' nodes, in order', async (_name, query, fields) => {
    const digest = (await t.db.knex('attestation_subjects').first('digest'))?.digest ?? REAL_DIGEST;
    const document = query.replace('SELECTION', `edges { node { ${fields} } } nodes { ${fields} }`).replace('DIGEST', digest);
    const res = await gql(t, document, { token: ALICE });
    expect(res.errors).toBeUndefined();
    const found = connectionsIn(res.data);
    expect(found.length).toBeGreaterThan(0);
    // Somewhere a page with items, so the comparison says something.
    expect(found.some((c) => c.nodes.length > 0)).toBe(true);
    for (const c of found) expect(c.nodes).toEqual(c.edges.map((edge) => edge.node));
  });

  it('asking for nodes as well as edges costs no SQL statement more', async () => {
    const page = '(first: 5) { EDGES }';
    const relations = 'number repository { nameWithOwner } assignees { login } securityAdvisory { svcsaId }';
    const edgesOnly = `{ organization(login: "acme-corp") { dependencyAlerts${page.replace('EDGES', `edges { node { ${relations} } }`)} } }`;
    const both = `{ organization(login: "acme-corp") { dependencyAlerts${page.replace('EDGES', `edges { node { ${relations} } } nodes { ${relations} }`)} } }`;
    const statementsFor = async (document: string) => {
      const statements = recordStatements(t.db);
      try {
        expect((await gql(t, document, { token: ALICE })).errors).toBeUndefined();
      } finally {
        statements.stop();
      }
      return statements.sql.length;
    };
    // Each text once first, so both are measured with the same caches warm (and neither from the response cache).
    await statementsFor(`${edgesOnly} # warm-up`);
    await statementsFor(`${both} # warm-up`);
    expect(await statementsFor(both)).toBe(await statementsFor(edgesOnly));
  });
});

describe('the attestation signer in camelCase', () => {
  const SNAKE = ['certificate_issuer', 'subject_alternative_name', 'source_repository_uri', 'source_repository_owner_uri', 'runner_environment', 'workflow_ref'];
  const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

  it('shows each signer field under its camelCase name, with the value of the deprecated snake_case one', async () => {
    const created = await t.http().post('/repos/acme-corp/web/attestations').set('Authorization', `Bearer ${ALICE}`).send({ bundle: JSON.parse(fs.readFileSync(REAL_BUNDLE, 'utf8')) });
    expect([200, 201]).toContain(created.status);
    const res = await gql(t, `{ repository(owner: "acme-corp", name: "web") { attestations(subjectDigest: "${REAL_DIGEST}", first: 5) { nodes {
      verification { verified signer { ${SNAKE.join(' ')} ${SNAKE.map(camel).join(' ')} } }
    } } } }`, { token: ALICE });
    expect(res.errors).toBeUndefined();
    const signers = (res.data.repository.attestations.nodes as Array<{ verification: { verified: boolean; signer: Record<string, string | null> | null } }>)
      .filter((a) => a.verification.verified).map((a) => a.verification.signer!);
    expect(signers.length).toBeGreaterThan(0);
    for (const signer of signers) {
      for (const name of SNAKE) expect([name, signer[camel(name)]]).toEqual([name, signer[name]]);
    }
    expect(signers[0]!.certificateIssuer).toBe('https://token.actions.githubusercontent.com');
    expect(signers[0]!.workflowRef).toBe('refs/heads/trunk');
  });

  it('marks the snake_case fields deprecated in introspection, naming the field to use', async () => {
    const res = await gql(t, '{ __type(name: "AttestationSigner") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }');
    expect(res.errors).toBeUndefined();
    const fields = new Map((res.data.__type.fields as Array<{ name: string; isDeprecated: boolean; deprecationReason: string | null }>).map((f) => [f.name, f]));
    for (const name of SNAKE) {
      expect(fields.get(name)).toMatchObject({ isDeprecated: true, deprecationReason: expect.stringContaining(`\`${camel(name)}\``) });
      expect(fields.get(camel(name))).toMatchObject({ isDeprecated: false, deprecationReason: null });
    }
  });
});

describe('the depth error names the operation', () => {
  /** An operation well past MAX_DEPTH: repository → dependencyAlerts → edges → node → repository, four times. */
  const tooDeep = (head: string) => `${head} { repository(owner: "acme-corp", name: "api") { ${'dependencyAlerts { edges { node { repository { '.repeat(4)}id${' } } } }'.repeat(4)} } }`;

  it('names a named operation', async () => {
    const res = await gql(t, tooDeep('query DashboardTooDeep'), { token: ALICE });
    expect(res.errors).toEqual([expect.objectContaining({
      message: `Operation "DashboardTooDeep" exceeds the maximum depth of ${MAX_DEPTH}.`, extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
    })]);
  });

  it('says "anonymous operation" for an unnamed one', async () => {
    const res = await gql(t, tooDeep(''), { token: ALICE });
    expect(res.errors).toEqual([expect.objectContaining({
      message: `The anonymous operation exceeds the maximum depth of ${MAX_DEPTH}.`, extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
    })]);
  });

  it('names the operation whose depth is past the limit when a document has several, and runs none', async () => {
    const shallow = 'query Shallow { viewer { login } }';
    const res = await t.http().post('/graphql').set('Authorization', `Bearer ${ALICE}`).send({ query: `${shallow} ${tooDeep('query Deep')}`, operationName: 'Shallow' });
    expect(res.body.errors?.map((e: { message: string }) => e.message)).toEqual([`Operation "Deep" exceeds the maximum depth of ${MAX_DEPTH}.`]);
    expect(res.body.data).toBeUndefined();
  });
});
