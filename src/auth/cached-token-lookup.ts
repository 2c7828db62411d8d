import { cacheableVersions } from '../cache/request-versions';
import { VersionedCache } from '../cache/versioned-cache';
import type { TokenRecord, TokenStore } from './token.store';

/** What authentication reads of the token store. */
export type TokenLookup = Pick<TokenStore, 'findByHash'>;

/**
 * Wraps the token look-up: known tokens by hash, for the request's data version. Any write
 * to tokens or accounts (a revocation too) moves the version, which empties it; expiry is
 * the authenticator's to check on every request.
 */
export function cachedTokenLookup(tokens: TokenLookup, maxEntries = 10_000): TokenLookup {
  const known = new VersionedCache<TokenRecord>({ maxSize: maxEntries, sizeOf: () => 1 });
  return {
    async findByHash(db, tokenHash) {
      const version = cacheableVersions(db)?.data;
      const hit = version === undefined ? undefined : known.get(version, tokenHash);
      if (hit) return hit;
      const token = await tokens.findByHash(db, tokenHash);
      if (token && version !== undefined) known.set(version, tokenHash, token);
      return token;
    },
  };
}
