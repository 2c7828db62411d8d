import type { AtVersions } from '../cache/at-versions';
import { outsideTransactions } from '../cache/outside-transactions';
import type { CacheBudget } from '../cache/cache-budget';
import { VersionedCache, budgetedOptions } from '../cache/versioned-cache';
import type { TokenRecord, TokenStore } from './token.store';

/** What authentication reads of the token store. */
export type TokenLookup = Pick<TokenStore, 'findByHash'>;

/**
 * Wraps the token look-up: known tokens by hash, for the request's data version. Any write
 * to tokens or accounts (a revocation too) moves the version, which empties it; expiry is
 * the authenticator's to check on every request.
 */
export function cachedTokenLookup(tokens: TokenLookup, budget: CacheBudget): AtVersions<TokenLookup> {
  const known = new VersionedCache<TokenRecord>(budgetedOptions(budget));
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
