import { AccessStore } from '../../src/auth/access.store';
import { createTestApp, type TestApp } from '../helpers/test-app';

// AccessStore.alertManagedOrgIds: the organizations of an enterprise whose alerts a user
// manages (owner, or security manager directly or through a team or a parent team), read for
// all of them at once, on every dialect.

const ENTERPRISE = 'as-ent';
const USER = 'as-user';

/** What as-user is in each organization of the enterprise (as-boss owns the others). */
const STANDINGS = {
  'as-owned': 'owner',
  'as-direct': 'security manager',
  'as-parent-team': 'security manager through a parent team',
  'as-plain-member': 'member (the security manager is someone else)',
  'as-other-role': 'holder of another role through a team',
  'as-outside': 'outsider',
  'as-later': 'member',
} as const;
type Standing = (typeof STANDINGS)[keyof typeof STANDINGS];
const ORGS = Object.keys(STANDINGS) as Array<keyof typeof STANDINGS>;

interface Grants {
  teams: Array<{ org: string; slug: string; members: string[]; parent?: string }>;
  roles: Array<{ org: string; role: string; user?: string; team?: string }>;
}

/** The teams and role assignments that make as-user what `standing` says in `org`. */
function grantsOf(org: string, standing: Standing): Grants {
  switch (standing) {
    case 'security manager':
      return { teams: [], roles: [{ org, role: 'security_manager', user: USER }] };
    case 'security manager through a parent team':
      return {
        teams: [{ org, slug: 'security', members: [] }, { org, slug: 'security-child', parent: 'security', members: [USER] }],
        roles: [{ org, role: 'security_manager', team: 'security' }],
      };
    case 'member (the security manager is someone else)':
      return { teams: [], roles: [{ org, role: 'security_manager', user: 'as-boss' }] };
    case 'holder of another role through a team':
      return { teams: [{ org, slug: 'readers', members: [USER] }], roles: [{ org, role: 'all_repo_read', team: 'readers' }] };
    default:
      return { teams: [], roles: [] };
  }
}

function world() {
  const grants = ORGS.map((org) => grantsOf(org, STANDINGS[org]));
  return {
    users: [{ login: USER }, { login: 'as-boss' }],
    enterprises: [{ slug: ENTERPRISE, owners: ['as-boss'] }],
    organizations: ORGS.map((login) => ({
      login, enterprise: ENTERPRISE, owners: STANDINGS[login] === 'owner' ? [USER] : ['as-boss'],
      members: STANDINGS[login] === 'owner' || STANDINGS[login] === 'outsider' ? [] : [USER],
    })),
    teams: grants.flatMap((g) => g.teams),
    role_assignments: grants.flatMap((g) => g.roles),
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world());
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
  const { orgs, statements } = await managed(USER);
  expect(orgs).toEqual(['as-owned', 'as-direct', 'as-parent-team']);
  expect(statements).toBeLessThanOrEqual(5); // seven organizations; one per organization would be seven and more
});

it('when the user owns every organization, answers all of them', async () => {
  expect((await managed('as-boss')).orgs).toEqual(ORGS.filter((o) => o !== 'as-owned'));
});
