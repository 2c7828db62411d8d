import { AccessStore } from '../../src/auth/access.store';
import { createTestApp, type TestApp } from '../helpers/test-app';

// AccessStore.alertManagedOrgIds: the organizations of an enterprise whose alerts a user
// manages (owner, or security manager directly or through a team or a parent team), read for
// all of them at once, on every dialect.

const ENTERPRISE = 'as-ent';
const ORGS = ['as-owned', 'as-direct', 'as-parent-team', 'as-plain-member', 'as-other-role', 'as-outside', 'as-later'];

function world(orgs: readonly string[]) {
  return {
    users: [{ login: 'as-user' }, { login: 'as-boss' }],
    enterprises: [{ slug: ENTERPRISE, owners: ['as-boss'] }],
    organizations: orgs.map((login) => ({
      login, enterprise: ENTERPRISE, owners: login === 'as-owned' ? ['as-user'] : ['as-boss'],
      members: login === 'as-owned' || login === 'as-outside' ? [] : ['as-user'],
    })),
    teams: [
      { org: 'as-parent-team', slug: 'security', members: [] },
      { org: 'as-parent-team', slug: 'security-child', parent: 'security', members: ['as-user'] },
      { org: 'as-other-role', slug: 'readers', members: ['as-user'] },
    ],
    role_assignments: [
      { org: 'as-direct', role: 'security_manager', user: 'as-user' },
      { org: 'as-parent-team', role: 'security_manager', team: 'security' },
      { org: 'as-other-role', role: 'all_repo_read', team: 'readers' },
      { org: 'as-plain-member', role: 'security_manager', user: 'as-boss' },
    ],
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world(ORGS));
});
afterAll(() => t.close());

async function idOf(login: string): Promise<number> {
  return Number((await t.db.knex('accounts').where({ login }).first('id')).id);
}

/** The call's answer (as logins) and how many statements it ran. */
async function managed(login: string): Promise<{ orgs: string[]; statements: number }> {
  const enterpriseId = Number((await t.db.knex('enterprises').where({ slug: ENTERPRISE }).first('id')).id);
  const userId = await idOf(login);
  let statements = 0;
  const count = () => { statements += 1; };
  t.db.knex.on('query', count);
  try {
    const ids = await new AccessStore().alertManagedOrgIds(t.db.knex, enterpriseId, userId);
    t.db.knex.off('query', count);
    return { orgs: await t.db.knex('accounts').whereIn('id', ids).orderBy('id').pluck('login'), statements };
  } finally {
    t.db.knex.off('query', count);
  }
}

it('answers the organizations a user owns or is a security manager of, directly or through a parent team, in at most five statements', async () => {
  const { orgs, statements } = await managed('as-user');
  expect(orgs).toEqual(['as-owned', 'as-direct', 'as-parent-team']);
  expect(statements).toBeLessThanOrEqual(5); // seven organizations; one per organization would be seven and more
});

it('when the user owns every organization, answers all of them', async () => {
  expect((await managed('as-boss')).orgs).toEqual(ORGS.filter((o) => o !== 'as-owned'));
});
