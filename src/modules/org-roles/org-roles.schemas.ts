import { z } from 'zod';
import { integerString, pathName } from '../../http/params';
import { pageQuery } from '../../http/pagination';
import type { InputContext } from '../../http/validate';

// Request schemas of #1–#10, one per path shape: the single source for validation
// (and, later, for the OpenAPI description).
export const ROLE_INPUT: InputContext = { resource: 'OrganizationRole', invalidStatus: 422 };

const roleId = integerString({ min: 1 });

export const orgPath = z.object({ org: pathName });
export const rolePath = orgPath.extend({ role_id: roleId });
export const teamPath = orgPath.extend({ team_slug: pathName });
export const teamRolePath = teamPath.extend({ role_id: roleId });
export const userPath = orgPath.extend({ username: pathName });
export const userRolePath = userPath.extend({ role_id: roleId });
export const roleMembersQuery = pageQuery;
