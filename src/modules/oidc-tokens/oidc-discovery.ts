import { Router } from 'express';
import type { OidcIssuer } from './issuer';
import type { SigningKeys } from './signing-keys';
import { sendJson } from '../../http/respond';

/** What relying parties may cache these for: a rotated key shows within the minute. */
const CACHE_CONTROL = 'public, max-age=60';

/** The claims a token may carry (the discovery document's claims_supported). */
const CLAIMS_SUPPORTED = [
  'iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti', 'actor', 'actor_id', 'base_ref', 'enterprise', 'enterprise_id', 'environment', 'event_name',
  'head_ref', 'job_workflow_ref', 'job_workflow_sha', 'ref', 'ref_type', 'repository', 'repository_id', 'repository_owner',
  'repository_owner_id', 'repository_visibility', 'run_attempt', 'run_id', 'run_number', 'runner_environment', 'sha', 'workflow',
  'workflow_ref', 'workflow_sha', 'repo_property_*',
];

/**
 * The discovery document and the JWKS, under the issuer's path (interfaces.md Part 2 "OIDC
 * tokens"): public, outside the API (no token, no rate limit), as cloud providers fetch them,
 * so not catalogue operations (app.ts mounts them beside /openapi.json). The JWKS shows public
 * keys only.
 */
export function oidcDiscoveryRoutes(deps: { issuer: OidcIssuer; keys: SigningKeys }): Router {
  const router = Router();
  router.get('/.well-known/openid-configuration', (_req, res) => {
    const issuer = deps.issuer.url;
    res.setHeader('Cache-Control', CACHE_CONTROL);
    sendJson(res, 200, {
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks`,
      subject_types_supported: ['public'],
      response_types_supported: ['id_token'],
      claims_supported: CLAIMS_SUPPORTED,
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: ['openid'],
    });
  });
  router.get('/.well-known/jwks', async (_req, res) => {
    const keys = await deps.keys.publicKeys();
    res.setHeader('Cache-Control', CACHE_CONTROL);
    sendJson(res, 200, { keys });
  });
  return router;
}
