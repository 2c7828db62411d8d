import { AuthenticationError } from '../errors/domain';
import type { Executor } from '../database/transaction';
import { nowTimestamp } from '../shared/time';
import { expandScopes, usesScopes } from './grants';
import { ANONYMOUS, type PermissionGrant, type Principal } from './principal';
import { hasValidChecksum, hashToken } from './token-format';
import type { TokenLookup } from './cached-token-lookup';
import type { TokenRecord } from './token.store';

const SCHEME = /^(?:bearer|token)\s+(\S+)\s*$/i;

/** Resolves the Authorization header to a principal: the one authentication step. */
export class Authenticator {
  /** `tokens` may be cached (composition.ts): expiry is checked here, on every request. */
  constructor(private readonly deps: { db: Executor; tokens: TokenLookup }) {}

  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (authorization === undefined || authorization.trim() === '') return ANONYMOUS;
    const match = SCHEME.exec(authorization);
    // Never a silent downgrade to anonymous: a header that says something wrong is refused.
    if (!match) throw new AuthenticationError('Bad credentials');
    const raw = match[1]!;
    if (!hasValidChecksum(raw)) throw new AuthenticationError('Bad credentials');
    const hash = hashToken(raw);
    const token = await this.deps.tokens.findByHash(this.deps.db, hash);
    if (!token || token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= nowTimestamp())) {
      throw new AuthenticationError('Bad credentials');
    }
    return toPrincipal(token);
  }
}

function toPrincipal(token: TokenRecord): Principal {
  if (usesScopes(token.type)) {
    if (token.userId === null || token.userLogin === null) throw new AuthenticationError('Bad credentials');
    return {
      kind: 'user', tokenId: token.id, tokenType: token.type, userId: token.userId, login: token.userLogin,
      grant: { kind: 'scopes', declared: token.scopes, effective: expandScopes(token.scopes) },
    };
  }
  const owner =
    token.ownerAccountId !== null ? { type: 'Account' as const, id: token.ownerAccountId }
      : token.ownerEnterpriseId !== null ? { type: 'Enterprise' as const, id: token.ownerEnterpriseId }
        : undefined;
  if (!owner) throw new AuthenticationError('Bad credentials');
  const grant: PermissionGrant = {
    kind: 'permissions',
    permissions: token.permissions,
    owner,
    repositories: token.repositorySelection === 'selected' ? new Set(token.repositoryIds) : 'all',
  };
  if (token.type === 'installation') {
    return { kind: 'app', tokenId: token.id, tokenType: 'installation', appName: token.appName ?? 'app', grant };
  }
  if (token.userId === null || token.userLogin === null) throw new AuthenticationError('Bad credentials');
  return { kind: 'user', tokenId: token.id, tokenType: token.type, userId: token.userId, login: token.userLogin, grant };
}
