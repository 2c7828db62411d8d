import { AccessOracle, areaTarget, worldCallers } from '../helpers/access-oracle';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ENTERPRISE, ORG, oidcWorld } from '../helpers/oidc-world';

// Expected statuses for #11–#20, #64 and #65 from the access oracle: the catalogue's
// requirements and what each caller is in the world, in the order the rules apply.

const world = oidcWorld();
const oracle = new AccessOracle(world);
const CALLERS = worldCallers(world);

interface Operation {
  name: OperationName;
  method: HttpMethod;
  path: string;
  body?: object;
  success: number;
  target: 'enterprise' | 'org' | 'private-repo' | 'public-repo';
}
/** Valid bodies of the operations that take one. */
const BODIES: Partial<Record<OperationName, object>> = {
  createEnterpriseOidcInclusion: { custom_property_name: 'team' },
  createOrgOidcInclusion: { custom_property_name: 'team' },
  setOrgOidcSubjectTemplate: { include_claim_keys: ['repo', 'context'] },
  setRepoOidcSubjectTemplate: { use_default: true },
  mintOidcToken: { context: { event_name: 'push', ref: 'refs/heads/main', sha: '5e1f9c2a7b3d8e4f6a0b1c2d3e4f5a6b7c8d9e0f', workflow: 'deploy', actor: 'writer' } },
  previewOidcToken: { context: { event_name: 'push', ref: 'refs/heads/main', sha: '5e1f9c2a7b3d8e4f6a0b1c2d3e4f5a6b7c8d9e0f', workflow: 'deploy', actor: 'writer' } },
};
// The catalogue's #11–#20; the repository ones on a private and a public repository.
const OPERATIONS: Operation[] = operationsTagged('oidc').flatMap((entry) => {
  const targets = entry.requirement.target === 'repo' ? (['private-repo', 'public-repo'] as const) : [entry.requirement.target as 'enterprise' | 'org'];
  const body = BODIES[entry.name];
  return targets.map((target) => ({
    name: entry.name, method: entry.method, success: entry.success, target, ...(body ? { body } : {}),
    path: fillPath(entry.path, { enterprise: ENTERPRISE, org: ORG, owner: ORG, repo: target, custom_property_name: 'environment' }),
  }));
});

let t: TestApp;
let ids: { enterprise: number; org: number };
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  ids = {
    enterprise: Number((await t.db.knex('enterprises').where({ slug: ENTERPRISE }).first('id')).id),
    org: Number((await t.db.knex('accounts').where({ login: ORG }).first('id')).id),
  };
});
afterAll(() => t.close());

/** Every cell starts from the same state: one inclusion ("environment") at each level. */
async function resetInclusions(): Promise<void> {
  const now = '2026-01-01T00:00:00Z';
  await t.db.knex('enterprise_oidc_property_inclusions').delete();
  await t.db.knex('organization_oidc_property_inclusions').delete();
  await t.db.knex('enterprise_oidc_property_inclusions').insert({ enterprise_id: ids.enterprise, custom_property_name: 'environment', created_at: now });
  await t.db.knex('organization_oidc_property_inclusions').insert({ org_id: ids.org, custom_property_name: 'environment', created_at: now });
}

describe.each(OPERATIONS.map((op) => [`#${CATALOGUE[op.name].number} ${op.method.toUpperCase()} (${op.target})`, op] as const))('%s', (_title, op) => {
  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('for %s, answers as the rules say', async (_name, caller) => {
    await resetInclusions();
    const request = t.http()[op.method](op.path);
    if (caller.header) request.set('Authorization', caller.header);
    const res = await (op.body ? request.send(op.body) : request);
    const expected = oracle.expect(caller, op.name, areaTarget({ enterprise: ENTERPRISE, org: ORG }, op.target), op.success).status;
    expect({ status: res.status, body: res.status >= 400 ? Object.keys(res.body).sort() : 'ok' }).toEqual({
      status: expected,
      body: expected >= 400 ? ['documentation_url', 'message', 'status'] : 'ok',
    });
  });
});
