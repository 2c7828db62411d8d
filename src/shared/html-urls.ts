// Where each thing's page is (every `html_url` in an answer): the serializers build the URLs
// from here and the pages (src/pages) are routed at these paths, so the two cannot drift.
// `base` is the request's API base (origin, plus /api/v3 in the enterprise-server layout).

export const htmlUrls = {
  /** A user's or an organization's page. */
  account: (base: string, login: string) => `${base}/${login}`,
  team: (base: string, org: string, slug: string) => `${base}/orgs/${org}/teams/${slug}`,
  enterprise: (base: string, slug: string) => `${base}/enterprises/${slug}`,
  /** The alert engine, the sender of its webhook events. */
  app: (base: string) => `${base}/apps/dependency-bot`,
  repository: (base: string, owner: string, name: string) => `${base}/${owner}/${name}`,
  repositoryAlerts: (base: string, owner: string, name: string) => `${base}/${owner}/${name}/security/dependency-bot`,
  alert: (base: string, owner: string, name: string, number: number) => `${htmlUrls.repositoryAlerts(base, owner, name)}/${number}`,
  advisory: (base: string, svcsaId: string) => `${base}/advisories/${svcsaId}/view`,
};

/** The same places as Express route paths (after the API's routes, which win where a login collides with them). */
export const HTML_ROUTES = {
  app: '/apps/dependency-bot',
  enterprise: '/enterprises/:slug',
  team: '/orgs/:org/teams/:slug',
  advisory: '/advisories/:svcsaId/view',
  alert: '/:owner/:repo/security/dependency-bot/:number',
  repositoryAlerts: '/:owner/:repo/security/dependency-bot',
  repository: '/:owner/:repo',
  account: '/:login',
} as const;
