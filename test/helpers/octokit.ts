import { API_VERSION } from '../../src/http/api-version';

// Octokit ships only as ES modules: loaded through import(), which stays one in this CommonJS package (tsconfig `module`).

export interface OctokitClasses {
  /** @octokit/core with plugin-paginate-rest, as scripts use it. */
  Paginating: any;
  /** Plus plugin-throttling and plugin-retry, as long-running integrations use it. */
  Throttled: any;
}

export async function loadOctokit(): Promise<OctokitClasses> {
  const [{ Octokit }, { paginateRest }, { throttling }, { retry }] = await Promise.all([
    import('@octokit/core'), import('@octokit/plugin-paginate-rest'), import('@octokit/plugin-throttling'), import('@octokit/plugin-retry'),
  ]);
  return { Paginating: Octokit.plugin(paginateRest), Throttled: Octokit.plugin(paginateRest, throttling, retry) };
}

/**
 * An Octokit pointed at orgsec: what a user changes is the base URL and the version header
 * (Octokit takes default headers per request, so a hook adds it to each, as GitHub's docs
 * show for X-GitHub-Api-Version).
 */
export function orgsecClient(Client: any, origin: string, token: string | undefined, options: Record<string, unknown> = {}): any {
  const client = new Client({ ...(token ? { auth: token } : {}), baseUrl: `${origin}/api/v3`, ...options });
  client.hook.before('request', (request: { headers: Record<string, string> }) => {
    request.headers['x-service-api-version'] = API_VERSION;
  });
  return client;
}
