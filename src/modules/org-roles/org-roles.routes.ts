import { Router, type Response } from 'express';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { setPageLinks } from '../../http/pagination';
import { sendEmpty, sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  ROLE_INPUT, orgPath, roleMembersQuery, rolePath, teamPath, teamRolePath, userPath, userRolePath,
} from './org-roles.schemas';
import { serializeRole, serializeRoleTeam, serializeRoleUser } from './org-roles.serializers';

/** This request's service (bound to its data versions for reads). */
const rolesOf = (res: Response) => servicesOf(res).orgRoles;

/** Spec §4.1, #1–#10. */
export function orgRolesRoutes(): Router {
  const router = Router();

  route(router, 'listOrgRoles', async (req, res) => {
    const { org } = parseInput(orgPath, req.params, ROLE_INPUT);
    const result = await rolesOf(res).listRoles(principalOf(res), org);
    sendJson(res, 200, {
      total_count: result.roles.length,
      roles: result.roles.map((role) => serializeRole(apiBaseOf(res), result.org, role)),
    });
  });

  route(router, 'revokeAllOrgRolesTeam', async (req, res) => {
    const p = parseInput(teamPath, req.params, ROLE_INPUT);
    await rolesOf(res).revokeAllFromTeam(principalOf(res), p.org, p.team_slug);
    sendEmpty(res, 204);
  });

  route(router, 'assignTeamToOrgRole', async (req, res) => {
    const p = parseInput(teamRolePath, req.params, ROLE_INPUT);
    await rolesOf(res).assignToTeam(principalOf(res), { org: p.org, teamSlug: p.team_slug, roleId: p.role_id });
    sendEmpty(res, 204);
  });

  route(router, 'revokeOrgRoleTeam', async (req, res) => {
    const p = parseInput(teamRolePath, req.params, ROLE_INPUT);
    await rolesOf(res).revokeFromTeam(principalOf(res), { org: p.org, teamSlug: p.team_slug, roleId: p.role_id });
    sendEmpty(res, 204);
  });

  route(router, 'revokeAllOrgRolesUser', async (req, res) => {
    const p = parseInput(userPath, req.params, ROLE_INPUT);
    await rolesOf(res).revokeAllFromUser(principalOf(res), p.org, p.username);
    sendEmpty(res, 204);
  });

  route(router, 'assignUserToOrgRole', async (req, res) => {
    const p = parseInput(userRolePath, req.params, ROLE_INPUT);
    await rolesOf(res).assignToUser(principalOf(res), { org: p.org, username: p.username, roleId: p.role_id });
    sendEmpty(res, 204);
  });

  route(router, 'revokeOrgRoleUser', async (req, res) => {
    const p = parseInput(userRolePath, req.params, ROLE_INPUT);
    await rolesOf(res).revokeFromUser(principalOf(res), { org: p.org, username: p.username, roleId: p.role_id });
    sendEmpty(res, 204);
  });

  route(router, 'getOrgRole', async (req, res) => {
    const p = parseInput(rolePath, req.params, ROLE_INPUT);
    const result = await rolesOf(res).getRole(principalOf(res), p.org, p.role_id);
    sendJson(res, 200, serializeRole(apiBaseOf(res), result.org, result.role));
  });

  route(router, 'listOrgRoleTeams', async (req, res) => {
    const p = parseInput(rolePath, req.params, ROLE_INPUT);
    const q = parseInput(roleMembersQuery, req.query, ROLE_INPUT);
    const result = await rolesOf(res).listTeams(principalOf(res), p.org, p.role_id, { page: q.page, perPage: q.per_page });
    setPageLinks(req, res, q, result.total);
    sendJson(res, 200, result.items.map((item) => serializeRoleTeam(apiBaseOf(res), result.org, item)));
  });

  route(router, 'listOrgRoleUsers', async (req, res) => {
    const p = parseInput(rolePath, req.params, ROLE_INPUT);
    const q = parseInput(roleMembersQuery, req.query, ROLE_INPUT);
    const result = await rolesOf(res).listUsers(principalOf(res), p.org, p.role_id, { page: q.page, perPage: q.per_page });
    setPageLinks(req, res, q, result.total);
    sendJson(res, 200, result.items.map((item) => serializeRoleUser(apiBaseOf(res), result.org, item)));
  });

  return router;
}
