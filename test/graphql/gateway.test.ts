import fs from 'node:fs';
import path from 'node:path';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';
import { linksOf } from '../helpers/links';

// The GraphQL gateway over the bundled demo world: every entry point and mutation through
// HTTP, parity with REST in both directions, and the error codes.

const DEMO = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'db', 'demo-world.json'), 'utf8'));
const ALICE = 'svc_demo_alice_owner';
const BOB = 'svc_demo_bob_member';
const FIXTURE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json'), 'utf8'));
const DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(DEMO);
});
afterAll(() => t.close());

describe('entry points', () => {
  it('viewer is the token\'s user, and null without a token', async () => {
    expect((await gql(t, '{ viewer { login } }', { token: ALICE })).data).toEqual({ viewer: { login: 'alice' } });
    expect((await gql(t, '{ viewer { login } }')).data).toEqual({ viewer: null });
  });

  it('organization, enterprise and repository find what the caller may see, by name in any case', async () => {
    const enums = await gql(t, '{ organization(login: "acme-corp") { organizationRole(databaseId: 8134) { source baseRole } } }', { token: ALICE });
    expect(enums.data.organization.organizationRole).toEqual({ source: 'PREDEFINED', baseRole: 'WRITE' });
    const res = await gql(t, `{
      organization(login: "ACME-CORP") { login organizationRolesEnabled enterprise { slug } }
      enterprise(slug: "acme") { slug name }
      repository(owner: "acme-corp", name: "API.git") { nameWithOwner isPrivate owner { ... on Organization { login } } }
    }`, { token: ALICE });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      organization: { login: 'acme-corp', organizationRolesEnabled: true, enterprise: { slug: 'acme' } },
      enterprise: { slug: 'acme', name: 'Acme' },
      repository: { nameWithOwner: 'acme-corp/api', isPrivate: true, owner: { login: 'acme-corp' } },
    });
  });

  it('a private repository is null for an outsider and without a token, like a missing one', async () => {
    for (const token of [undefined, 'svc_demo_frank_globex']) {
      const res = await gql(t, '{ hidden: repository(owner: "acme-corp", name: "api") { name } missing: repository(owner: "acme-corp", name: "nope") { name } }', token ? { token } : {});
      expect(res.data).toEqual({ hidden: null, missing: null });
    }
  });

  it('node(id) finds each kind of object by the id it shows, and answers an unknown or hidden one alike', async () => {
    const ids = await gql(t, `{
      viewer { id }
      organization(login: "acme-corp") { id organizationRole(databaseId: 138) { id }
        dependencyAlerts(first: 1) { edges { node { id securityAdvisory { id } } } } }
      enterprise(slug: "acme") { id }
      repository(owner: "acme-corp", name: "web") { id attestations(subjectDigest: "${DIGEST}") { edges { node { id } } } }
    }`, { token: ALICE });
    expect(ids.errors).toBeUndefined();
    const d = ids.data;
    const alert = d.organization.dependencyAlerts.edges[0].node;
    for (const [id, typename] of [
      [d.viewer.id, 'User'], [d.organization.id, 'Organization'], [d.organization.organizationRole.id, 'OrganizationRole'], [alert.id, 'DependencyAlert'],
      [alert.securityAdvisory.id, 'SecurityAdvisory'], [d.enterprise.id, 'Enterprise'], [d.repository.id, 'Repository'], [d.repository.attestations.edges[0].node.id, 'Attestation'],
    ]) {
      const res = await gql(t, 'query($id: ID!) { node(id: $id) { __typename id } }', { token: ALICE, variables: { id } });
      expect({ id, data: res.data }).toEqual({ id, data: { node: { __typename: typename, id } } });
    }
    const repoId = d.repository.id;
    const hidden = await gql(t, 'query($id: ID!) { node(id: $id) { id } }', { variables: { id: (await gql(t, '{ repository(owner:"acme-corp", name:"api") { id } }', { token: ALICE })).data.repository.id } });
    const missing = await gql(t, 'query($id: ID!) { node(id: $id) { id } }', { variables: { id: 'R_bm90LWEtbm9kZQ' } });
    expect(hidden.data).toEqual({ node: null });
    expect(hidden.errors?.[0]).toMatchObject({ message: 'Not Found', extensions: { code: 'NOT_FOUND' } });
    expect(missing.errors?.[0]).toMatchObject({ message: 'Not Found', extensions: { code: 'NOT_FOUND' } });
    expect(repoId).toMatch(/^R_/);
  });
});

describe('parity with REST', () => {
  it('an alert reads the same through both doors, field by field', async () => {
    const rest = (await t.http().get('/repos/acme-corp/api/dependency-bot/alerts/2').set(bearer(ALICE))).body;
    const res = await gql(t, `{ repository(owner: "acme-corp", name: "api") { dependencyAlert(number: 2) {
      number state url htmlUrl createdAt updatedAt dismissedAt dismissedReason dismissedComment fixedAt autoDismissedAt
      dismissedBy { login } assignees { login }
      dependency { package { ecosystem name } manifestPath scope relationship }
      securityAdvisory { svcsaId cveId severity classification summary epss { percentage percentile } cvss { vectorString score } }
      securityVulnerability { vulnerableVersionRange firstPatchedVersion severity }
    } } }`, { token: ALICE });
    const g = res.data.repository.dependencyAlert;
    expect(g).toEqual({
      number: rest.number, state: rest.state.toUpperCase(), url: rest.url, htmlUrl: rest.html_url,
      createdAt: new Date(rest.created_at).toISOString(), updatedAt: new Date(rest.updated_at).toISOString(),
      dismissedAt: rest.dismissed_at && new Date(rest.dismissed_at).toISOString(), dismissedReason: rest.dismissed_reason?.toUpperCase() ?? null,
      dismissedComment: rest.dismissed_comment, fixedAt: rest.fixed_at, autoDismissedAt: rest.auto_dismissed_at,
      dismissedBy: rest.dismissed_by && { login: rest.dismissed_by.login }, assignees: rest.assignees.map((u: { login: string }) => ({ login: u.login })),
      dependency: {
        package: { ecosystem: rest.dependency.package.ecosystem.toUpperCase(), name: rest.dependency.package.name },
        manifestPath: rest.dependency.manifest_path, scope: rest.dependency.scope.toUpperCase(), relationship: rest.dependency.relationship.toUpperCase(),
      },
      securityAdvisory: {
        svcsaId: rest.security_advisory.svcsa_id, cveId: rest.security_advisory.cve_id, severity: rest.security_advisory.severity.toUpperCase(),
        classification: rest.security_advisory.classification.toUpperCase(), summary: rest.security_advisory.summary, epss: rest.security_advisory.epss,
        cvss: { vectorString: rest.security_advisory.cvss.vector_string, score: rest.security_advisory.cvss.score },
      },
      securityVulnerability: {
        vulnerableVersionRange: rest.security_vulnerability.vulnerable_version_range,
        firstPatchedVersion: rest.security_vulnerability.first_patched_version?.identifier ?? null, severity: rest.security_vulnerability.severity.toUpperCase(),
      },
    });
  });

  it('a cursor from a REST Link works as GraphQL after, and a GraphQL cursor as REST after', async () => {
    const first = await t.http().get('/orgs/acme-corp/dependency-bot/alerts?per_page=2&sort=updated').set(bearer(ALICE));
    const after = new URL(linksOf(first.headers.link).next!).searchParams.get('after')!;
    const restSecond = await t.http().get(`/orgs/acme-corp/dependency-bot/alerts?per_page=2&sort=updated&after=${after}`).set(bearer(ALICE));
    const gqlSecond = await gql(t, 'query($after: String) { organization(login: "acme-corp") { dependencyAlerts(first: 2, sort: UPDATED, after: $after) { edges { cursor node { number repository { name } } } } } }', { token: ALICE, variables: { after } });
    const edges = gqlSecond.data.organization.dependencyAlerts.edges;
    expect(edges.map((e: any) => `${e.node.repository.name}#${e.node.number}`)).toEqual(restSecond.body.map((a: any) => `${a.repository.name}#${a.number}`));
    const back = await t.http().get(`/orgs/acme-corp/dependency-bot/alerts?per_page=2&sort=updated&after=${edges[0].cursor}`).set(bearer(ALICE));
    expect(back.status).toBe(200);
    expect(back.body[0].number).toBe(restSecond.body[1].number);
  });

  it('a GraphQL mutation is seen by REST, and a REST write by GraphQL', async () => {
    const m = await gql(t, 'mutation { updateDependencyAlert(input: {owner: "acme-corp", repository: "web", number: 1, assignees: ["bob"]}) { dependencyAlert { assignees { login } } } }', { token: ALICE });
    expect(m.data.updateDependencyAlert.dependencyAlert.assignees).toEqual([{ login: 'bob' }]);
    expect((await t.http().get('/repos/acme-corp/web/dependency-bot/alerts/1').set(bearer(ALICE))).body.assignees.map((u: any) => u.login)).toEqual(['bob']);
    await t.http().patch('/repos/acme-corp/web/dependency-bot/alerts/1').set(bearer(ALICE)).send({ assignees: [] }).expect(200);
    const after = await gql(t, '{ repository(owner: "acme-corp", name: "web") { dependencyAlert(number: 1) { assignees { login } } } }', { token: ALICE });
    expect(after.data.repository.dependencyAlert.assignees).toEqual([]);
  });

  it('role assignments agree: a GraphQL assignment appears in #9, and #10 matches GraphQL holders', async () => {
    const assign = await gql(t, 'mutation { assignOrganizationRoleToTeam(input: {organization: "acme-corp", team: "platform", roleId: 8134}) { organizationRole { name } team { slug } } }', { token: ALICE });
    expect(assign.data.assignOrganizationRoleToTeam).toEqual({ organizationRole: { name: 'all_repo_write' }, team: { slug: 'platform' } });
    const rest = (await t.http().get('/orgs/acme-corp/organization-roles/8134/teams').set(bearer(ALICE))).body;
    expect(rest.map((team: any) => [team.slug, team.assignment])).toEqual([['platform', 'direct'], ['platform-infra', 'indirect']]);
    const holders = await gql(t, '{ organization(login: "acme-corp") { organizationRole(databaseId: 8134) { teams(first: 10) { totalCount edges { assignment node { slug } } } users(first: 10) { edges { assignment inheritedFrom { slug } node { login } } } } } }', { token: ALICE });
    const role = holders.data.organization.organizationRole;
    expect(role.teams.edges.map((e: any) => [e.node.slug, e.assignment])).toEqual([['platform', 'DIRECT'], ['platform-infra', 'INDIRECT']]);
    const restUsers = (await t.http().get('/orgs/acme-corp/organization-roles/8134/users').set(bearer(ALICE))).body;
    expect(role.users.edges.map((e: any) => [e.node.login, e.assignment.toLowerCase(), e.inheritedFrom.map((x: any) => x.slug)]))
      .toEqual(restUsers.map((u: any) => [u.login, u.assignment, u.inherited_from.map((x: any) => x.slug)]));
    await gql(t, 'mutation { revokeOrganizationRoleFromTeam(input: {organization: "acme-corp", team: "platform", roleId: 8134}) { team { slug } } }', { token: ALICE });
    expect((await t.http().get('/orgs/acme-corp/organization-roles/8134/teams').set(bearer(ALICE))).body).toEqual([]);
  });

  it('OIDC templates and inclusions agree through both doors', async () => {
    const set = await gql(t, 'mutation { setRepositoryOidcSubjectClaimTemplate(input: {owner: "acme-corp", repository: "api", useDefault: false, includeClaimKeys: ["repo", "ref"]}) { template { useDefault includeClaimKeys } } }', { token: ALICE });
    expect(set.data.setRepositoryOidcSubjectClaimTemplate.template).toEqual({ useDefault: false, includeClaimKeys: ['repo', 'ref'] });
    expect((await t.http().get('/repos/acme-corp/api/actions/oidc/customization/sub').set(bearer(ALICE))).body).toMatchObject({ use_default: false, include_claim_keys: ['repo', 'ref'] });
    await t.http().put('/orgs/acme-corp/actions/oidc/customization/sub').set(bearer(ALICE)).send({ include_claim_keys: ['repo', 'workflow'] }).expect(201);
    const org = await gql(t, '{ organization(login: "acme-corp") { oidcSubjectClaimTemplate { includeClaimKeys } oidcPropertyInclusions { customPropertyName source } } enterprise(slug: "acme") { oidcPropertyInclusions { customPropertyName source } } }', { token: ALICE });
    expect(org.data.organization.oidcSubjectClaimTemplate.includeClaimKeys).toEqual(['repo', 'workflow']);
    expect(org.data.organization.oidcPropertyInclusions).toEqual([{ customPropertyName: 'environment', source: 'ORGANIZATION' }]);
    expect(org.data.enterprise.oidcPropertyInclusions).toEqual([{ customPropertyName: 'environment', source: 'ENTERPRISE' }]);
    const add = await gql(t, 'mutation { addOrganizationOidcPropertyInclusion(input: {organization: "acme-corp", customPropertyName: "team"}) { inclusions { customPropertyName } } }', { token: ALICE });
    expect(add.data.addOrganizationOidcPropertyInclusion.inclusions.map((i: any) => i.customPropertyName)).toEqual(['environment', 'team']);
    const again = await gql(t, 'mutation { addOrganizationOidcPropertyInclusion(input: {organization: "acme-corp", customPropertyName: "team"}) { inclusions { customPropertyName } } }', { token: ALICE });
    expect(again.errors?.[0]).toMatchObject({ message: 'Inclusion already exists', extensions: { code: 'BAD_USER_INPUT' } });
    await gql(t, 'mutation { removeOrganizationOidcPropertyInclusion(input: {organization: "acme-corp", customPropertyName: "team"}) { inclusions { customPropertyName } } }', { token: ALICE });
    expect((await t.http().get('/orgs/acme-corp/actions/oidc/customization/properties/repo').set(bearer(ALICE))).body.map((i: any) => i.property_name)).toEqual(['environment']);
    const ent = await gql(t, 'mutation { addEnterpriseOidcPropertyInclusion(input: {enterprise: "acme", customPropertyName: "team"}) { inclusions { customPropertyName } } }', { token: ALICE });
    expect(ent.data.addEnterpriseOidcPropertyInclusion.inclusions.map((i: any) => i.customPropertyName)).toEqual(['environment', 'team']);
    await gql(t, 'mutation { removeEnterpriseOidcPropertyInclusion(input: {enterprise: "acme", customPropertyName: "team"}) { inclusions { customPropertyName } } }', { token: ALICE });
  });

  it('attestations agree: created through GraphQL, listed by REST with the same bundle', async () => {
    const created = await gql(t, 'mutation($bundle: JSON!) { createAttestation(input: {owner: "acme-corp", repository: "api", bundle: $bundle}) { attestation { databaseId predicateType subjects { digest name } bundle } } }', { token: ALICE, variables: { bundle: FIXTURE } });
    expect(created.errors).toBeUndefined();
    const attestation = created.data.createAttestation.attestation;
    expect(attestation.predicateType).toBe('https://slsa.dev/provenance/v1');
    expect(attestation.subjects).toEqual([{ digest: DIGEST, name: 'gh_2.50.0_windows_arm64.zip' }]);
    const rest = (await t.http().get(`/repos/acme-corp/api/attestations/${DIGEST}`).set(bearer(ALICE))).body.attestations;
    expect(rest).toHaveLength(1);
    expect(rest[0].bundle).toEqual(attestation.bundle);
    const listed = await gql(t, `{ repository(owner: "acme-corp", name: "api") { attestations(subjectDigest: "${DIGEST}", predicateType: "provenance") { totalCount edges { node { databaseId bundleUrl } } } } }`, { token: ALICE });
    expect(listed.data.repository.attestations.totalCount).toBe(1);
    expect(listed.data.repository.attestations.edges[0].node).toEqual({ databaseId: attestation.databaseId, bundleUrl: rest[0].bundle_url });
  });
});

describe('errors', () => {
  it('a bad token is UNAUTHENTICATED with HTTP 401', async () => {
    const res = await gql(t, '{ viewer { login } }', { token: 'not-a-token' });
    expect(res.status).toBe(401);
    expect(res.errors?.[0]).toMatchObject({ message: 'Bad credentials', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('a denied field is null with FORBIDDEN, and does not take down its siblings', async () => {
    const res = await gql(t, '{ organization(login: "acme-corp") { login organizationRoles { name } dependencyAlerts(first: 1) { totalCount } } }', { token: 'svc_demo_dave_outside' });
    expect(res.data.organization.login).toBe('acme-corp');
    expect(res.data.organization.organizationRoles).toBeNull();
    // Sibling fields resolve concurrently: their errors come in either order.
    expect(res.errors?.map((e) => [e.path?.join('.'), e.extensions.code]).sort()).toEqual([
      ['organization.dependencyAlerts', 'FORBIDDEN'], ['organization.organizationRoles', 'FORBIDDEN'],
    ]);
  });

  it('invalid input is BAD_USER_INPUT naming the field; a conflict is CONFLICT', async () => {
    const bad = await gql(t, 'mutation { setOrganizationOidcSubjectClaimTemplate(input: {organization: "acme-corp", includeClaimKeys: ["no-dashes"]}) { template { includeClaimKeys } } }', { token: ALICE });
    const sentence = '"includeClaimKeys.0" must contain only letters, digits and underscores; got "no-dashes".';
    expect(bad.errors?.[0]).toMatchObject({
      message: sentence,
      extensions: { code: 'BAD_USER_INPUT', fields: [{ field: 'includeClaimKeys.0', code: 'invalid', message: sentence }] },
    });
    await gql(t, 'mutation { updateDependencyAlert(input: {owner: "acme-corp", repository: "infra", number: 1, state: DISMISSED, dismissedReason: INACCURATE}) { dependencyAlert { state } } }', { token: ALICE });
    const conflict = await gql(t, 'mutation { updateDependencyAlert(input: {owner: "acme-corp", repository: "infra", number: 1, state: DISMISSED, dismissedReason: INACCURATE}) { dependencyAlert { state } } }', { token: ALICE });
    expect(conflict.errors?.[0]).toMatchObject({ message: 'Alert 1 is already dismissed', extensions: { code: 'CONFLICT' } });
  });

  it('an operation the caller may not perform is FORBIDDEN and changes nothing', async () => {
    const res = await gql(t, 'mutation { assignOrganizationRoleToUser(input: {organization: "acme-corp", user: "carol", roleId: 138}) { user { login } } }', { token: BOB });
    expect(res.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect((await t.http().get('/orgs/acme-corp/organization-roles/138/users').set(bearer(ALICE))).body.map((u: any) => u.login)).not.toContain('carol');
  });

  it('first above 100 is refused', async () => {
    const res = await gql(t, '{ organization(login: "acme-corp") { dependencyAlerts(first: 101) { totalCount } } }', { token: ALICE });
    expect(res.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('GraphQL over GET', () => {
  const query = '/graphql?query=%7Bviewer%7Blogin%7D%7D';
  const get = (headers: Record<string, string> = {}) => {
    const req = t.http().get(query).set(bearer(ALICE)).set('apollo-require-preflight', 'true');
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req;
  };

  it('answers If-None-Match with a 304 as every read does, also with the Cache-Control: no-cache fetch adds', async () => {
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { viewer: { login: 'alice' } } });
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/"/);
    for (const headers of [{ 'If-None-Match': tag }, { 'If-None-Match': tag, 'Cache-Control': 'no-cache' }]) {
      const again = await get(headers);
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(tag);
      expect(again.text ?? '').toBe('');
    }
    expect((await get({ 'If-None-Match': 'W/"other"', 'Cache-Control': 'no-cache' })).status).toBe(200);
  });
});

describe('the explorer', () => {
  it('a browser GET of /graphql shows the Apollo Sandbox landing page, with a link to GraphiQL', async () => {
    const res = await t.http().get('/graphql').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toContain('https://embeddable-sandbox.cdn.apollographql.com/');
    expect(res.text).toContain('<a href="graphiql/">');
  });

  it('a GET query without a preflight header is refused (CSRF prevention)', async () => {
    const res = await t.http().get('/graphql?query=%7Bviewer%7Blogin%7D%7D');
    expect(res.status).toBe(400);
  });
});
