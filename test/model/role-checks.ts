import { ORG } from './model-world';
import { roleTeams, roleUsers, type Model } from './model';
import { expectStatus, send, type Real } from './real';

// #9 and #10 as the owner sees them, against the model: who holds a role, and how.

type Json = Record<string, any>;
export const holdersPath = (real: Real, role: string, kind: 'teams' | 'users') => `/orgs/${ORG}/organization-roles/${real.roleId(role)}/${kind}?per_page=100`;

/** The teams holding a role, as the model has them, in the API's order (by team id). */
export function expectedRoleTeams(m: Model, real: Real, role: string) {
  return roleTeams(m, role)
    .sort((a, b) => real.teamId(a.slug) - real.teamId(b.slug))
    .map((t) => ({ slug: t.slug, assignment: t.assignment, parent: t.parent }));
}

/** The users holding a role (by user id), each with the assigned teams it comes through (by team id). */
export function expectedRoleUsers(m: Model, real: Real, role: string) {
  return roleUsers(m, role)
    .sort((a, b) => real.userId(a.login) - real.userId(b.login))
    .map((u) => ({ login: u.login, assignment: u.assignment, inherited_from: [...u.via].sort((a, b) => real.teamId(a) - real.teamId(b)) }));
}

export const teamsOf = (body: Json[]) => body.map((t) => ({ slug: t.slug, assignment: t.assignment, parent: t.parent?.slug ?? null }));
export const usersOf = (body: Json[]) =>
  body.map((u) => ({ login: u.login, assignment: u.assignment, inherited_from: (u.inherited_from as Json[]).map((t) => t.slug) }));

/** Both holder lists of each role, read as the owner. */
export async function expectRoleHoldersMatch(m: Model, real: Real, roles: readonly string[]): Promise<void> {
  for (const role of roles) {
    const teams = await send(real, 'owner', 'get', holdersPath(real, role, 'teams'));
    const users = await send(real, 'owner', 'get', holdersPath(real, role, 'users'));
    expectStatus(teams, 200);
    expectStatus(users, 200);
    expect({ role, teams: teamsOf(teams.body), users: usersOf(users.body) })
      .toEqual({ role, teams: expectedRoleTeams(m, real, role), users: expectedRoleUsers(m, real, role) });
  }
}
