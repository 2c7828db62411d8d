import { encodeNodeId } from '../../shared/node-id';
import type { OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from './accounts.types';
import { htmlUrls } from '../../shared/html-urls';

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
    html_url: htmlUrls.account(base, user.login),
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
    html_url: htmlUrls.team(base, orgLogin, team.slug),
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

// §2.10 URL-template fields of a repository summary, relative to the repository's API URL.
const REPOSITORY_URL_TEMPLATES: Record<string, string> = {
  archive_url: '/{archive_format}{/ref}', assignees_url: '/assignees{/user}', blobs_url: '/git/blobs{/sha}',
  branches_url: '/branches{/branch}', collaborators_url: '/collaborators{/collaborator}', comments_url: '/comments{/number}',
  commits_url: '/commits{/sha}', compare_url: '/compare/{base}...{head}', contents_url: '/contents/{+path}',
  contributors_url: '/contributors', deployments_url: '/deployments', downloads_url: '/downloads', events_url: '/events',
  forks_url: '/forks', git_commits_url: '/git/commits{/sha}', git_refs_url: '/git/refs{/sha}', git_tags_url: '/git/tags{/sha}',
  hooks_url: '/hooks', issue_comment_url: '/issues/comments{/number}', issue_events_url: '/issues/events{/number}',
  issues_url: '/issues{/number}', keys_url: '/keys{/key_id}', labels_url: '/labels{/name}', languages_url: '/languages',
  merges_url: '/merges', milestones_url: '/milestones{/number}', notifications_url: '/notifications{?since,all,participating}',
  pulls_url: '/pulls{/number}', releases_url: '/releases{/id}', stargazers_url: '/stargazers', statuses_url: '/statuses/{sha}',
  subscribers_url: '/subscribers', subscription_url: '/subscription', tags_url: '/tags', teams_url: '/teams', trees_url: '/git/trees{/sha}',
};

/** §2.10 repository summary (in enterprise and organization alert lists). */
export function serializeRepositorySummary(base: string, repo: RepositoryRecord) {
  const fullName = `${repo.ownerLogin}/${repo.name}`;
  const url = `${base}/repos/${fullName}`;
  const templates = Object.fromEntries(Object.entries(REPOSITORY_URL_TEMPLATES).map(([key, suffix]) => [key, `${url}${suffix}`]));
  return {
    id: repo.id,
    node_id: encodeNodeId('Repository', repo.id),
    name: repo.name,
    full_name: fullName,
    owner: serializeUserSummary(base, { id: repo.ownerId, login: repo.ownerLogin, type: repo.ownerType, siteAdmin: repo.ownerSiteAdmin }),
    private: repo.isPrivate,
    html_url: htmlUrls.repository(base, repo.ownerLogin, repo.name),
    description: repo.description,
    fork: repo.fork,
    url,
    ...templates,
  };
}
