import { z } from 'zod';

// Response schemas of spec §2.2–2.4 and §2.10, the shapes accounts.serializers.ts produces;
// the OpenAPI description is generated from them (src/openapi).

/** §2.3 user summary (also a repository's owner, which may be an organization). */
export const userSummarySchema = z.strictObject({
  login: z.string(),
  id: z.int(),
  node_id: z.string(),
  avatar_url: z.string(),
  gravatar_id: z.string(),
  url: z.string(),
  html_url: z.string(),
  followers_url: z.string(),
  following_url: z.string().describe('URI template'),
  gists_url: z.string().describe('URI template'),
  starred_url: z.string().describe('URI template'),
  subscriptions_url: z.string(),
  organizations_url: z.string(),
  repos_url: z.string(),
  events_url: z.string().describe('URI template'),
  received_events_url: z.string(),
  type: z.enum(['User', 'Organization']),
  site_admin: z.boolean(),
});

/** §2.2 organization summary, in its "fuller variant" (the user-summary fields as well). */
export const organizationFullSchema = userSummarySchema.extend({
  hooks_url: z.string(),
  issues_url: z.string(),
  members_url: z.string().describe('URI template'),
  public_members_url: z.string().describe('URI template'),
  description: z.string().nullable(),
});

const teamFields = {
  id: z.int(),
  node_id: z.string(),
  url: z.string(),
  html_url: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  privacy: z.string(),
  notification_setting: z.string(),
  permission: z.string(),
  members_url: z.string().describe('URI template'),
  repositories_url: z.string(),
};

/** §2.4 team summary; a non-null parent has the same fields but no parent of its own. */
export const teamSummarySchema = z.strictObject({ ...teamFields, parent: z.strictObject(teamFields).nullable() });

const REPOSITORY_URL_TEMPLATE_FIELDS = [
  'archive_url', 'assignees_url', 'blobs_url', 'branches_url', 'collaborators_url', 'comments_url', 'commits_url', 'compare_url',
  'contents_url', 'contributors_url', 'deployments_url', 'downloads_url', 'events_url', 'forks_url', 'git_commits_url', 'git_refs_url',
  'git_tags_url', 'hooks_url', 'issue_comment_url', 'issue_events_url', 'issues_url', 'keys_url', 'labels_url', 'languages_url',
  'merges_url', 'milestones_url', 'notifications_url', 'pulls_url', 'releases_url', 'stargazers_url', 'statuses_url', 'subscribers_url',
  'subscription_url', 'tags_url', 'teams_url', 'trees_url',
] as const;

/** §2.10 repository summary (in enterprise and organization alert lists). */
export const repositorySummarySchema = z.strictObject({
  id: z.int(),
  node_id: z.string(),
  name: z.string(),
  full_name: z.string(),
  owner: userSummarySchema,
  private: z.boolean(),
  html_url: z.string(),
  description: z.string().nullable(),
  fork: z.boolean(),
  url: z.string(),
  ...Object.fromEntries(REPOSITORY_URL_TEMPLATE_FIELDS.map((field) => [field, z.string()])) as Record<(typeof REPOSITORY_URL_TEMPLATE_FIELDS)[number], z.ZodString>,
});
