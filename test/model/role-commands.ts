import fc from 'fast-check';
import { FOREIGN_ROLE, ORG, ROLES, TEAMS, USERS, type Caller, type Login } from './model-world';
import { isOrgMember, roleAdminAccess, roleReaderAccess, type Model } from './model';
import { expectRoleHoldersMatch, expectedRoleTeams, expectedRoleUsers, holdersPath, teamsOf, usersOf } from './role-checks';
import { expectRefused, expectStatus, loginOf, send, unchangedBy, type Real } from './real';
import { StepCommand, callerArb } from './step-command';

// #2–#10: assigning and revoking organization roles (one or all, teams and users), and
// reading who holds them. Every change is to the model's assignment sets; the access of every
// later command follows from them (a revoked security manager loses the private repository).

const BASE = `/orgs/${ORG}/organization-roles`;
const ROLE_NAMES = ROLES.map((r) => r.name);
/** A role of another organization and an id no role has: both unknown here. */
const UNKNOWN_ROLES = [FOREIGN_ROLE, 'no such role'];
/** The organization's teams, the sibling's (not here) and one nobody made. */
const MISSING_TEAMS = ['sibling-team', 'mb-no-team'];
const MISSING_USER = 'mb-nobody';

type Grantee = { kind: 'team'; slug: string } | { kind: 'user'; login: string };
type RoleChange = 'assign' | 'revoke' | 'revoke-all';

const granteePath = (g: Grantee) => (g.kind === 'team' ? `teams/${g.slug}` : `users/${g.login}`);
const knownRole = (role: string) => ROLE_NAMES.includes(role);
const exists = (g: Grantee) => (g.kind === 'team' ? TEAMS.some((t) => t.slug === g.slug) : (USERS as readonly string[]).includes(g.login));
const holdings = (m: Model, g: Grantee, role: string) => (g.kind === 'team' ? m.teamRoles.get(role)! : (m.userRoles.get(role)! as Set<string>));

/** #3/#6 (assign), #4/#7 (revoke one), #2/#5 (revoke all). */
class ChangeRole extends StepCommand {
  constructor(readonly caller: Caller, readonly change: RoleChange, readonly grantee: Grantee, readonly role: string) {
    super();
  }

  toString() {
    const target = this.change === 'revoke-all' ? granteePath(this.grantee) : `${granteePath(this.grantee)} ${this.role}`;
    return `${this.caller}: ${this.change} ${target}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const { change, grantee, role } = this;
    const path = change === 'revoke-all' ? `${BASE}/${granteePath(grantee)}` : `${BASE}/${granteePath(grantee)}/${real.roleId(role)}`;
    const request = () => send(real, this.caller, change === 'assign' ? 'put' : 'delete', path);
    const access = roleAdminAccess(loginOf(this.caller));
    if (access !== 200) return void (await expectRefused(real, access, request));
    // spec #3/#6: the team or user, then the role, must exist here (404); a user must be a member (422).
    if (!exists(grantee) || (change !== 'revoke-all' && !knownRole(role))) return void (await expectRefused(real, 404, request));
    if (change === 'assign' && grantee.kind === 'user' && !isOrgMember(grantee.login as Login)) {
      const res = await expectRefused(real, 422, request);
      expect(res.body.errors?.[0]?.field).toBe('username');
      return;
    }
    const changed = change === 'revoke-all' ? ROLE_NAMES : [role];
    const key = grantee.kind === 'team' ? grantee.slug : grantee.login;
    // Assigning a role held, or revoking one not held, is a 204 that changes nothing at all.
    const isNoOp = changed.every((name) => holdings(m, grantee, name).has(key) === (change === 'assign'));
    const res = isNoOp ? await unchangedBy(real, request) : await request();
    expect({ status: res.status, text: res.text }).toEqual({ status: 204, text: '' });
    for (const name of changed) {
      if (change === 'assign') holdings(m, grantee, name).add(key);
      else holdings(m, grantee, name).delete(key);
    }
    await expectRoleHoldersMatch(m, real, changed);
  }
}

/** #9/#10 by any caller: owners only; an unknown role is 404. */
class ListRoleHolders extends StepCommand {
  constructor(readonly caller: Caller, readonly kind: 'teams' | 'users', readonly role: string) {
    super();
  }

  toString() {
    return `${this.caller}: GET ${this.role}/${this.kind}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const request = () => send(real, this.caller, 'get', holdersPath(real, this.role, this.kind));
    const access = roleAdminAccess(loginOf(this.caller));
    if (access !== 200 || !knownRole(this.role)) return void (await expectRefused(real, access !== 200 ? access : 404, request));
    const res = await request();
    expectStatus(res, 200);
    if (this.kind === 'teams') expect(teamsOf(res.body)).toEqual(expectedRoleTeams(m, real, this.role));
    else expect(usersOf(res.body)).toEqual(expectedRoleUsers(m, real, this.role));
  }
}

/** #8 by any caller: what a role is, for those who may view roles (a right roles themselves give). */
class GetRole extends StepCommand {
  constructor(readonly caller: Caller, readonly role: string) {
    super();
  }

  toString() {
    return `${this.caller}: GET role ${this.role}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const request = () => send(real, this.caller, 'get', `${BASE}/${real.roleId(this.role)}`);
    const access = roleReaderAccess(m, loginOf(this.caller));
    const role = ROLES.find((r) => r.name === this.role);
    if (access !== 200 || !role) return void (await expectRefused(real, access !== 200 ? access : 404, request));
    const res = await request();
    expectStatus(res, 200);
    expect({ name: res.body.name, permissions: res.body.permissions, base_role: res.body.base_role, organization: res.body.organization?.login })
      .toEqual({ name: role.name, permissions: role.permissions, base_role: role.baseRole, organization: ORG });
  }
}

const roleArb = fc.oneof({ arbitrary: fc.constantFrom(...ROLE_NAMES), weight: 8 }, { arbitrary: fc.constantFrom(...UNKNOWN_ROLES), weight: 1 });
/**
 * Mostly the grantees whose roles decide the callers' rights (the security team, the platform
 * team above the member's, the member and the security manager themselves), so roles pile up
 * where revoking them matters; now and then any other, or one that does not exist.
 */
const HOT_TEAMS = ['security', 'platform'];
const HOT_USERS: readonly string[] = ['mb-dev-a', 'mb-secmgr'];
const team = (slug: string) => ({ kind: 'team' as const, slug });
const user = (login: string) => ({ kind: 'user' as const, login });
const granteeArb: fc.Arbitrary<Grantee> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOT_TEAMS.map(team), ...HOT_USERS.map(user)) },
  { weight: 3, arbitrary: fc.constantFrom(...TEAMS.map((t) => team(t.slug)), ...USERS.map(user)) },
  { weight: 1, arbitrary: fc.constantFrom(...MISSING_TEAMS.map(team), user(MISSING_USER)) },
);
/** Assignments twice as often as revocations, so roles accumulate and revoke-all has work. */
const changeArb = fc.oneof(
  { arbitrary: fc.constant<RoleChange>('assign'), weight: 4 },
  { arbitrary: fc.constant<RoleChange>('revoke'), weight: 2 },
  { arbitrary: fc.constant<RoleChange>('revoke-all'), weight: 1 },
);

export const roleCommands: Array<fc.WeightedArbitrary<fc.AsyncCommand<Model, Real>>> = [
  { weight: 6, arbitrary: fc.tuple(callerArb, changeArb, granteeArb, roleArb).map(([caller, change, grantee, role]) => new ChangeRole(caller, change, grantee, role)) },
  { weight: 1, arbitrary: fc.tuple(callerArb, fc.constantFrom('teams' as const, 'users' as const), roleArb).map(([caller, kind, role]) => new ListRoleHolders(caller, kind, role)) },
  { weight: 1, arbitrary: fc.tuple(callerArb, roleArb).map(([caller, role]) => new GetRole(caller, role)) },
];
