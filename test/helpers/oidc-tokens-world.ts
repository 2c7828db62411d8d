
// A world for the OIDC token tests: an enterprise, an organization with custom properties (two
// included, one not), private and public repositories with values, and callers of each kind.

export const ENTERPRISE = 'octo-ent';
export const ORG = 'octo-org';
export const PRIVATE = `${ORG}/octo-repo`;
export const PUBLIC = `${ORG}/octo-site`;

export const TT = {
  owner: 'octo_owner_token',
  writer: 'octo_writer_token',
  reader: 'octo_reader_token',
  outsider: 'octo_outsider_token',
  installation: 'octo_installation_id_token',
  installationNoIdToken: 'octo_installation_actions_only',
} as const;

export function oidcTokensWorld() {
  return {
    users: ['octo-owner', 'octo-writer', 'octo-reader', 'octo-outsider'].map((login) => ({ login })),
    enterprises: [{ slug: ENTERPRISE, name: 'Octo Enterprise', owners: ['octo-owner'] }],
    organizations: [{
      login: ORG, enterprise: ENTERPRISE, owners: ['octo-owner'], members: ['octo-writer'],
      custom_properties: [
        { name: 'environment', value_type: 'single_select', allowed_values: ['prod', 'staging'] },
        { name: 'regions', value_type: 'multi_select', allowed_values: ['eu', 'us'] },
        { name: 'cost.center', value_type: 'string' },
      ],
    }],
    teams: [{ org: ORG, slug: 'deployers', members: ['octo-writer'], repositories: [{ name: 'octo-repo', permission: 'write' }] }],
    repositories: [
      { owner: ORG, name: 'octo-repo', private: true, custom_properties: { environment: 'prod', regions: ['eu', 'us'], 'cost.center': 'cc-7' },
        collaborators: [{ login: 'octo-reader', permission: 'read' }] },
      { owner: ORG, name: 'octo-site', private: false },
    ],
    oidc: {
      enterprise_property_inclusions: [{ enterprise: ENTERPRISE, custom_property_name: 'environment' }],
      organization_property_inclusions: [{ org: ORG, custom_property_name: 'regions' }],
    },
    tokens: [
      { token: TT.owner, type: 'classic', user: 'octo-owner', scopes: ['admin:org', 'repo'] },
      { token: TT.writer, type: 'classic', user: 'octo-writer', scopes: ['repo'] },
      { token: TT.reader, type: 'classic', user: 'octo-reader', scopes: ['repo'] },
      { token: TT.outsider, type: 'classic', user: 'octo-outsider', scopes: ['repo'] },
      { token: TT.installation, type: 'installation', app: 'deployer', resource_owner: ORG, permissions: { id_token: 'write' } },
      { token: TT.installationNoIdToken, type: 'installation', app: 'deployer', resource_owner: ORG, permissions: { actions: 'write' } },
    ],
  };
}

/** A push to main, as a workflow run reports it. */
export const PUSH_CONTEXT = {
  event_name: 'push', ref: 'refs/heads/main', sha: '3f9d2c1b8a7e6f5d4c3b2a1908f7e6d5c4b3a291', workflow: 'deploy', actor: 'octo-writer',
  run_id: '8123456790', run_number: '41', workflow_ref: `${PRIVATE}/.github/workflows/deploy.yml@refs/heads/main`,
};

export type Jose = typeof import('jose');
export const loadJose = (): Promise<Jose> => import('jose');

/**
 * Verifies a token as a relying party does: the keys from the issuer's JWKS URL over HTTP, the
 * issuer and audience checked. `jwksUrl` may differ from the issuer's own when the test's
 * issuer names another host.
 */
export async function verifyAsRelyingParty(jose: Jose, token: string, options: { jwksUrl: string; issuer: string; audience: string; currentDate?: Date }) {
  const keys = jose.createRemoteJWKSet(new URL(options.jwksUrl), { cooldownDuration: 0, cacheMaxAge: 0 });
  return jose.jwtVerify(token, keys, {
    issuer: options.issuer, audience: options.audience, algorithms: ['RS256'], ...(options.currentDate ? { currentDate: options.currentDate } : {}),
  });
}
