import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { gql, type GraphQLResponse } from '../helpers/graphql';

// GraphQL answers every caller as REST does: for each operation and each demo token, the
// REST status predicts the GraphQL outcome. 2xx: a value. 401: UNAUTHENTICATED, or NOT_FOUND
// at the entry (without a token GraphQL shows public data only). 403: FORBIDDEN, or
// NOT_FOUND at the entry when the token cannot see the entry at all. 404: NOT_FOUND.
// So GraphQL never allows what REST refuses, nor refuses what REST allows.

const DEMO = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'db', 'demo-world.json'), 'utf8'));
const FIXTURE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json'), 'utf8'));
const DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
const TOKENS: Array<string | undefined> = [undefined, 'not-a-real-token', ...DEMO.tokens.map((t: { token: string }) => t.token)];

interface Pair {
  name: string;
  rest: { method: 'get' | 'put' | 'patch' | 'post' | 'delete'; path: string; body?: unknown };
  /** Puts back what the previous call removed (as the owner), so each call starts alike. */
  before?: { method: 'post'; path: string; body: unknown };
  graphql: { query: string; variables?: Record<string, unknown>; path: string };
}

const PAIRS: Pair[] = [
  { name: '#1 roles', rest: { method: 'get', path: '/orgs/acme-corp/organization-roles' }, graphql: { query: '{ organization(login: "acme-corp") { organizationRoles { id } } }', path: 'organization.organizationRoles' } },
  { name: '#8 role', rest: { method: 'get', path: '/orgs/acme-corp/organization-roles/138' }, graphql: { query: '{ organization(login: "acme-corp") { organizationRole(databaseId: 138) { id } } }', path: 'organization.organizationRole' } },
  { name: '#11 enterprise inclusions', rest: { method: 'get', path: '/enterprises/acme/actions/oidc/customization/properties/repo' }, graphql: { query: '{ enterprise(slug: "acme") { oidcPropertyInclusions { customPropertyName } } }', path: 'enterprise.oidcPropertyInclusions' } },
  { name: '#14 organization inclusions', rest: { method: 'get', path: '/orgs/acme-corp/actions/oidc/customization/properties/repo' }, graphql: { query: '{ organization(login: "acme-corp") { oidcPropertyInclusions { customPropertyName } } }', path: 'organization.oidcPropertyInclusions' } },
  { name: '#17 organization template', rest: { method: 'get', path: '/orgs/acme-corp/actions/oidc/customization/sub' }, graphql: { query: '{ organization(login: "acme-corp") { oidcSubjectClaimTemplate { includeClaimKeys } } }', path: 'organization.oidcSubjectClaimTemplate' } },
  { name: '#19 private repository template', rest: { method: 'get', path: '/repos/acme-corp/api/actions/oidc/customization/sub' }, graphql: { query: '{ repository(owner: "acme-corp", name: "api") { oidcSubjectClaimTemplate { useDefault } } }', path: 'repository.oidcSubjectClaimTemplate' } },
  { name: '#22 public attestations', rest: { method: 'get', path: `/repos/acme-corp/web/attestations/${DIGEST}` }, graphql: { query: `{ repository(owner: "acme-corp", name: "web") { attestations(subjectDigest: "${DIGEST}") { totalCount } } }`, path: 'repository.attestations' } },
  { name: '#23 enterprise alerts', rest: { method: 'get', path: '/enterprises/acme/dependency-bot/alerts' }, graphql: { query: '{ enterprise(slug: "acme") { dependencyAlerts { totalCount } } }', path: 'enterprise.dependencyAlerts' } },
  { name: '#24 organization alerts', rest: { method: 'get', path: '/orgs/acme-corp/dependency-bot/alerts' }, graphql: { query: '{ organization(login: "acme-corp") { dependencyAlerts { totalCount } } }', path: 'organization.dependencyAlerts' } },
  { name: '#25 repository alerts', rest: { method: 'get', path: '/repos/acme-corp/api/dependency-bot/alerts' }, graphql: { query: '{ repository(owner: "acme-corp", name: "api") { dependencyAlerts { totalCount } } }', path: 'repository.dependencyAlerts' } },
  { name: '#26 one alert', rest: { method: 'get', path: '/repos/acme-corp/api/dependency-bot/alerts/1' }, graphql: { query: '{ repository(owner: "acme-corp", name: "api") { dependencyAlert(number: 1) { number } } }', path: 'repository.dependencyAlert' } },
  { name: '#3 assign a team role', rest: { method: 'put', path: '/orgs/acme-corp/organization-roles/teams/security/8132' }, graphql: { query: 'mutation { assignOrganizationRoleToTeam(input: {organization: "acme-corp", team: "security", roleId: 8132}) { team { slug } } }', path: 'assignOrganizationRoleToTeam' } },
  { name: '#6 assign a user role', rest: { method: 'put', path: '/orgs/acme-corp/organization-roles/users/bob/8132' }, graphql: { query: 'mutation { assignOrganizationRoleToUser(input: {organization: "acme-corp", user: "bob", roleId: 8132}) { user { login } } }', path: 'assignOrganizationRoleToUser' } },
  { name: '#4 revoke a team role', rest: { method: 'delete', path: '/orgs/acme-corp/organization-roles/teams/security/8133' }, graphql: { query: 'mutation { revokeOrganizationRoleFromTeam(input: {organization: "acme-corp", team: "security", roleId: 8133}) { team { slug } } }', path: 'revokeOrganizationRoleFromTeam' } },
  { name: '#2 revoke all team roles', rest: { method: 'delete', path: '/orgs/acme-corp/organization-roles/teams/platform-infra' }, graphql: { query: 'mutation { revokeAllOrganizationRolesFromTeam(input: {organization: "acme-corp", team: "platform-infra"}) { team { slug } } }', path: 'revokeAllOrganizationRolesFromTeam' } },
  { name: '#7 revoke a user role', rest: { method: 'delete', path: '/orgs/acme-corp/organization-roles/users/erin/8133' }, graphql: { query: 'mutation { revokeOrganizationRoleFromUser(input: {organization: "acme-corp", user: "erin", roleId: 8133}) { user { login } } }', path: 'revokeOrganizationRoleFromUser' } },
  { name: '#5 revoke all user roles', rest: { method: 'delete', path: '/orgs/acme-corp/organization-roles/users/erin' }, graphql: { query: 'mutation { revokeAllOrganizationRolesFromUser(input: {organization: "acme-corp", user: "erin"}) { user { login } } }', path: 'revokeAllOrganizationRolesFromUser' } },
  { name: '#12 and #13 enterprise inclusion', rest: { method: 'delete', path: '/enterprises/acme/actions/oidc/customization/properties/repo/environment' }, graphql: { query: 'mutation { removeEnterpriseOidcPropertyInclusion(input: {enterprise: "acme", customPropertyName: "environment"}) { inclusions { customPropertyName } } }', path: 'removeEnterpriseOidcPropertyInclusion' }, before: { method: 'post', path: '/enterprises/acme/actions/oidc/customization/properties/repo', body: { custom_property_name: 'environment' } } },
  { name: '#15 and #16 organization inclusion', rest: { method: 'delete', path: '/orgs/acme-corp/actions/oidc/customization/properties/repo/environment' }, graphql: { query: 'mutation { removeOrganizationOidcPropertyInclusion(input: {organization: "acme-corp", customPropertyName: "environment"}) { inclusions { customPropertyName } } }', path: 'removeOrganizationOidcPropertyInclusion' }, before: { method: 'post', path: '/orgs/acme-corp/actions/oidc/customization/properties/repo', body: { custom_property_name: 'environment' } } },
  { name: '#18 set the organization template', rest: { method: 'put', path: '/orgs/acme-corp/actions/oidc/customization/sub', body: { include_claim_keys: ['repo', 'context'] } }, graphql: { query: 'mutation { setOrganizationOidcSubjectClaimTemplate(input: {organization: "acme-corp", includeClaimKeys: ["repo", "context"]}) { template { includeClaimKeys } } }', path: 'setOrganizationOidcSubjectClaimTemplate' } },
  { name: '#20 set a repository template', rest: { method: 'put', path: '/repos/acme-corp/api/actions/oidc/customization/sub', body: { use_default: true } }, graphql: { query: 'mutation { setRepositoryOidcSubjectClaimTemplate(input: {owner: "acme-corp", repository: "api", useDefault: true}) { template { useDefault } } }', path: 'setRepositoryOidcSubjectClaimTemplate' } },
  { name: '#21 create an attestation', rest: { method: 'post', path: '/repos/acme-corp/api/attestations', body: { bundle: FIXTURE } }, graphql: { query: 'mutation($bundle: JSON!) { createAttestation(input: {owner: "acme-corp", repository: "api", bundle: $bundle}) { attestation { databaseId } } }', variables: { bundle: FIXTURE }, path: 'createAttestation' } },
  { name: '#27 update an alert', rest: { method: 'patch', path: '/repos/acme-corp/api/dependency-bot/alerts/3', body: { assignees: [] } }, graphql: { query: 'mutation { updateDependencyAlert(input: {owner: "acme-corp", repository: "api", number: 3, assignees: []}) { dependencyAlert { number } } }', path: 'updateDependencyAlert' } },
];

function expectedOutcomes(status: number): string[] {
  if (status < 300) return ['OK'];
  if (status === 401) return ['UNAUTHENTICATED', 'ENTRY_NOT_FOUND'];
  if (status === 403) return ['FORBIDDEN', 'ENTRY_NOT_FOUND'];
  if (status === 404) return ['NOT_FOUND', 'ENTRY_NOT_FOUND'];
  return [`HTTP ${status}`];
}

function outcome(res: GraphQLResponse, target: string): string {
  if (res.status === 401) return 'UNAUTHENTICATED';
  const error = res.errors?.find((e) => target === e.path?.join('.') || target.startsWith(`${e.path?.join('.')}.`));
  if (error) return error.extensions.code === 'NOT_FOUND' && error.path?.join('.') !== target ? 'ENTRY_NOT_FOUND' : error.extensions.code;
  let value: unknown = res.data;
  for (const key of target.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value === null || value === undefined ? 'NULL' : 'OK';
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(DEMO);
});
afterAll(() => t.close());

describe.each(PAIRS.map((p) => [p.name, p] as const))('%s', (_name, pair) => {
  it.each(TOKENS.map((token) => [token ?? 'no token', token] as const))('for %s, GraphQL answers as REST does', async (_label, token) => {
    const restore = async () => {
      if (pair.before) await t.http().post(pair.before.path).set('Authorization', 'Bearer svc_demo_alice_owner').send(pair.before.body as object);
    };
    await restore();
    const request = t.http()[pair.rest.method](pair.rest.path);
    if (token) request.set('Authorization', `Bearer ${token}`);
    const rest = await (pair.rest.body ? request.send(pair.rest.body as object) : request);
    await restore();
    const graphql = await gql(t, pair.graphql.query, { ...(token ? { token } : {}), ...(pair.graphql.variables ? { variables: pair.graphql.variables } : {}) });
    const got = outcome(graphql, pair.graphql.path);
    expect({ rest: rest.status, graphql: got, agrees: expectedOutcomes(rest.status).includes(got) }).toEqual({ rest: rest.status, graphql: got, agrees: true });
  });
});
