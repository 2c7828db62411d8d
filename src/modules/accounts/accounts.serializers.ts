import { encodeNodeId } from '../../shared/node-id';
import type { OrganizationRecord, TeamRecord, UserRecord } from './accounts.types';

// REST shapes of spec §2.2–2.4. URL fields are built from the request's own API base.

/** Avatars are served by no one here; the URL is stable and unique per account. */
function avatarUrl(base: string, id: number): string {
  return `${base}/avatars/u/${id}`;
}

/** §2.3 user summary (also the owner of a repository, which may be an organization). */
export function serializeUserSummary(base: string, user: Pick<UserRecord, 'id' | 'login' | 'type' | 'siteAdmin'>) {
  const url = `${base}/users/${user.login}`;
  return {
    login: user.login,
    id: user.id,
    node_id: encodeNodeId(user.type, user.id),
    avatar_url: avatarUrl(base, user.id),
    gravatar_id: '',
    url,
    html_url: `${base}/${user.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: user.type,
    site_admin: user.siteAdmin,
  };
}

/** §2.2 organization summary. */
export function serializeOrganizationSummary(base: string, org: Pick<OrganizationRecord, 'id' | 'login' | 'description'>) {
  const url = `${base}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: encodeNodeId('Organization', org.id),
    url,
    repos_url: `${url}/repos`,
    events_url: `${url}/events`,
    hooks_url: `${url}/hooks`,
    issues_url: `${url}/issues`,
    members_url: `${url}/members{/member}`,
    public_members_url: `${url}/public_members{/member}`,
    avatar_url: avatarUrl(base, org.id),
    description: org.description,
  };
}

/** §2.2 "fuller variant" shown in role responses: the summary plus the user-summary fields. */
export function serializeOrganizationFull(base: string, org: Pick<OrganizationRecord, 'id' | 'login' | 'description'>) {
  return {
    ...serializeUserSummary(base, { id: org.id, login: org.login, type: 'Organization', siteAdmin: false }),
    ...serializeOrganizationSummary(base, org),
  };
}

function teamFields(base: string, orgLogin: string, team: TeamRecord) {
  const url = `${base}/organizations/${team.orgId}/team/${team.id}`;
  return {
    id: team.id,
    node_id: encodeNodeId('Team', team.id),
    url,
    html_url: `${base}/orgs/${orgLogin}/teams/${team.slug}`,
    name: team.name,
    slug: team.slug,
    description: team.description,
    privacy: team.privacy,
    notification_setting: team.notificationSetting,
    permission: team.permission,
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
  };
}

/** §2.4 team summary; a non-null parent is shown with the same fields but its own parent. */
export function serializeTeamSummary(base: string, orgLogin: string, team: TeamRecord, parent: TeamRecord | null) {
  return { ...teamFields(base, orgLogin, team), parent: parent ? teamFields(base, orgLogin, parent) : null };
}
