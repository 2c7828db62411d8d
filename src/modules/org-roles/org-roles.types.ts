import type { RepoPermission } from '../../auth/access.store';
import type { TeamRecord, UserRecord } from '../accounts/accounts.types';

export interface RoleRecord {
  id: number;
  /** null for the predefined roles every organization has. */
  orgId: number | null;
  name: string;
  description: string | null;
  permissions: string[];
  baseRole: RepoPermission | null;
  source: 'Organization' | 'Enterprise' | 'Predefined';
  createdAt: string;
  updatedAt: string;
}

/** How a team or user holds a role (reference.md): itself, through a team, or both. */
export type Assignment = 'direct' | 'indirect' | 'mixed';

export interface RoleHolder {
  id: number;
  direct: boolean;
  /** The teams assigned the role through which this holder has it. */
  viaTeamIds: number[];
}

export function assignmentOf(holder: RoleHolder): Assignment {
  if (holder.viaTeamIds.length === 0) return 'direct';
  return holder.direct ? 'mixed' : 'indirect';
}

export interface TeamWithParent {
  team: TeamRecord;
  parent: TeamRecord | null;
}

export interface RoleTeam extends TeamWithParent {
  assignment: Assignment;
}

export interface RoleUser {
  user: UserRecord;
  assignment: Assignment;
  inheritedFrom: TeamWithParent[];
}

export interface Page<T> {
  total: number;
  items: T[];
}

/** A role given to or taken from a team (#3, #4), as both doors name it. */
export interface TeamRoleAssignment {
  org: string;
  teamSlug: string;
  roleId: number;
}

/** A role given to or taken from a user (#6, #7), as both doors name it. */
export interface UserRoleAssignment {
  org: string;
  username: string;
  roleId: number;
}
