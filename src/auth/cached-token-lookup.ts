import type { AtVersions } from '../cache/at-versions';
import { outsideTransactions } from '../cache/outside-transactions';
import { VersionedCache } from '../cache/versioned-cache';
import type { TokenRecord, TokenStore } from './token.store';

/** What authentication reads of the token store. */
export type TokenLookup = Pick<TokenStore, 'findByHash'>;

/**
 * Wraps the token look-up: known tokens by hash, for the request's data version. Any write
 * to tokens or accounts (a revocation too) moves the version, which empties it; expiry is
 * the authenticator's to check on every request.
 */
export function cachedTokenLookup(tokens: TokenLookup, maxEntries = 10_000): AtVersions<TokenLookup> {
  const known = new VersionedCache<TokenRecord>({ maxSize: maxEntries, sizeOf: () => 1 });
  return (versions) => {
    const version = versions?.data;
    if (version === undefined) return tokens;
    return {
      findByHash: outsideTransactions((...args) => tokens.findByHash(...args), async (db, tokenHash) => {
        const hit = known.get(version, tokenHash);
        if (hit) return hit;
        const token = await tokens.findByHash(db, tokenHash);
        if (token) known.set(version, tokenHash, token);
        return token;
      }),
    };
  };
}
