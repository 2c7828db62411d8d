import { Router, type Response } from 'express';
import { OPERATIONS, type OperationName } from '../operations';
import { API_V3_PATH } from './api-base';
import { apiBaseOf } from './locals';
import { escapeHtml } from '../pages/html';
import { sendJson, sendText } from './respond';

// GET / (and /api/v3/): where clients start, as the original's root ("meta/root") answers:
// an object of `*_url` fields, absolute, URL templates in braces, under the base the
// request used. A browser (Accept naming text/html) gets the same links as a page.

/** Entry points of the REST API, by the operation whose path they are (never a copy of it). */
const OPERATION_LINKS: Record<string, OperationName> = {
  organization_roles_url: 'listOrgRoles',
  organization_role_url: 'getOrgRole',
  enterprise_oidc_property_inclusions_url: 'listEnterpriseOidcInclusions',
  organization_oidc_property_inclusions_url: 'listOrgOidcInclusions',
  organization_oidc_subject_claim_template_url: 'getOrgOidcSubjectTemplate',
  repository_oidc_subject_claim_template_url: 'getRepoOidcSubjectTemplate',
  repository_attestations_url: 'listAttestations',
  enterprise_dependency_alerts_url: 'listEnterpriseDependencyAlerts',
  organization_dependency_alerts_url: 'listOrgDependencyAlerts',
  repository_dependency_alerts_url: 'listRepoDependencyAlerts',
  repository_dependency_alert_url: 'getDependencyAlert',
  advisories_url: 'listGlobalAdvisories',
  advisory_url: 'getGlobalAdvisory',
  repository_dependency_snapshots_url: 'createDependencySnapshot',
  repository_sbom_url: 'getDependencySbom',
  organization_hooks_url: 'listOrgWebhooks',
  repository_hooks_url: 'listRepoWebhooks',
  organization_dependency_bot_rules_url: 'listOrgDependencyBotRules',
  repository_dependency_bot_rules_url: 'listRepoDependencyBotRules',
};

export interface RootOptions {
  /** GraphiQL is served (GRAPHQL_EXPLORER on). */
  graphiql: boolean;
  /** Where this server serves the OIDC issuer's discovery document and JWKS ('' at the root): OidcIssuer.path. */
  oidcIssuerPath: string;
}

/** The links, absolute, for a request whose API base (origin and mount path) is `base`. */
export function rootLinks(base: string, { graphiql, oidcIssuerPath }: RootOptions): Record<string, string> {
  const origin = new URL(base).origin;
  // The enterprise-server layout pairs /api/v3 with /api/graphql (and /api/graphiql/).
  const graphql = `${origin}${base.endsWith(API_V3_PATH) ? '/api/graphql' : '/graphql'}`;
  const links: Record<string, string> = {};
  for (const [name, operation] of Object.entries(OPERATION_LINKS)) links[name] = `${base}${OPERATIONS[operation].path}`;
  links.graphql_url = graphql;
  if (graphiql) links.graphiql_url = `${graphql.replace(/graphql$/, 'graphiql')}/`;
  links.openapi_url = `${base}/openapi.json`;
  links.docs_url = `${base}/docs/`;
  links.versions_url = `${base}/versions`;
  links.health_url = `${origin}/healthz`;
  // Outside the API, at the origin (app.ts): the Prometheus metrics, the OIDC issuer's discovery document.
  links.metrics_url = `${origin}/metrics`;
  links.oidc_discovery_url = `${origin}${oidcIssuerPath}/.well-known/openid-configuration`;
  return links;
}

function rootPage(links: Record<string, string>, signInUrl: string): string {
  const rows = Object.entries(links).map(([name, url]) => {
    // A template (braces) is shown, not linked: it is not a page until filled in.
    const shown = url.includes('{') ? `<code>${escapeHtml(url)}</code>` : `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    return `    <tr><th scope="row"><code>${escapeHtml(name)}</code></th><td>${shown}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>orgsec API</title>
  <style>
    body { font-family: system-ui, sans-serif; margin: 2em; }
    table { border-collapse: collapse; } th, td { text-align: left; padding: 4px 12px 4px 0; vertical-align: top; }
  </style>
</head>
<body>
  <h1>orgsec API</h1>
  <p>Organization roles, Actions OIDC customization, attestations and dependency alerts, over REST and GraphQL.
    Send <code>Authorization: Bearer &lt;your token&gt;</code>; clients get these links as JSON from this same URL.</p>
  <p>Every <code>html_url</code> in an answer is a page here; <a href="${escapeHtml(signInUrl)}">sign in</a> with a token to read the private ones in a browser.</p>
  <table>
${rows.join('\n')}
  </table>
</body>
</html>
`;
}

function sendRoot(res: Response, options: RootOptions): void {
  const links = rootLinks(apiBaseOf(res), options);
  // A browser names text/html; clients (Octokit's application/vnd.github+json, */*, none) get JSON.
  if (res.req.accepts(['application/json', 'text/html']) === 'text/html') {
    sendText(res, 200, 'text/html; charset=utf-8', rootPage(links, `${apiBaseOf(res)}/sign-in`));
    return;
  }
  sendJson(res, 200, links);
}

/** GET / under each mount of the REST API. */
export function rootRoutes(options: RootOptions): Router {
  const router = Router();
  router.get('/', (_req, res) => sendRoot(res, options));
  return router;
}
