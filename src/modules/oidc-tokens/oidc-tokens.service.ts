import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import type { BatchLookup } from '../../cache/cached-batch';
import type { DataVersions } from '../../database/data-version';
import { NotFoundError } from '../../errors/domain';
import type { OperationName } from '../../operations';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import { buildClaims, defaultAudience } from './claims';
import type { OidcIssuer } from './issuer';
import { loadJose } from './jose';
import type { ClaimSources, MintedToken, TokenPreview, TokenRequest } from './oidc-tokens.types';
import type { SigningKeys } from './signing-keys';

export interface OidcTokensDeps {
  db: Knex;
  lookups: AuthorizedLookups;
  /** Claim sources by repository id (kept per data version by composition.ts). */
  sources: BatchLookup<ClaimSources>;
  keys: SigningKeys;
  issuer: OidcIssuer;
  /** Milliseconds since the epoch: iat, nbf and exp follow it (tests set it). */
  clock: () => number;
  /** The request's data versions: the signing key read under them holds while they do. */
  versions: DataVersions | undefined;
}

/** exp is 5 minutes after iat, nbf 5 minutes before it (interfaces.md). */
const VALIDITY_SECONDS = 5 * 60;

/**
 * Interfaces.md Part 2 "OIDC tokens": the claims a workflow run's token carries, previewed or
 * signed. Writes nothing (but the first signing key, once): the mint is a POST because the
 * original's token request is one, and it reads at the request's data versions like a GET.
 */
export class OidcTokensService {
  constructor(private readonly deps: OidcTokensDeps) {}

  /** What a mint of the same request would carry, but the time-based claims; nothing signed. */
  async preview(principal: Principal, owner: string, name: string, request: TokenRequest): Promise<TokenPreview> {
    return this.claimsFor(principal, 'previewOidcToken', owner, name, request);
  }

  /** A signed token for a run of the repository's workflows. */
  async mint(principal: Principal, owner: string, name: string, request: TokenRequest): Promise<MintedToken> {
    // The caller first: a refused request never makes the first key.
    const { claims } = await this.claimsFor(principal, 'mintOidcToken', owner, name, request);
    const [key, jose] = await Promise.all([this.deps.keys.current(this.deps.versions), loadJose()]);
    const iat = Math.floor(this.deps.clock() / 1000);
    const signed = { ...claims, exp: iat + VALIDITY_SECONDS, iat, nbf: iat - VALIDITY_SECONDS, jti: crypto.randomUUID() };
    const value = await new jose.SignJWT(signed).setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
    return { value, claims: signed };
  }

  private async claimsFor(principal: Principal, operation: OperationName, owner: string, name: string, request: TokenRequest): Promise<TokenPreview> {
    const { db, issuer } = this.deps;
    const repo = await this.deps.lookups.repo(db, principal, operation, owner, name);
    const sources = (await this.deps.sources(db, [repo.id])).get(repo.id);
    // Deleted between the look-up and this read: as if it had never been there.
    if (!sources) throw new NotFoundError();
    const audience = request.audience ?? defaultAudience(issuer.audienceBase, sources.owner.login);
    return buildClaims({ issuer: issuer.url, audience, sources, context: request.context });
  }
}
