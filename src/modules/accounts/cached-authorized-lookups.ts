import type { Principal } from '../../auth/principal';
import type { AtVersions } from '../../cache/at-versions';
import { outsideTransactions } from '../../cache/outside-transactions';
import type { CacheBudget } from '../../cache/cache-budget';
import { VersionedCache, budgetedOptions } from '../../cache/versioned-cache';
import type { AuthorizedLookups } from './authorized-lookups';

/**
 * Wraps the authorized look-ups: granted organization and repository look-ups are kept per
 * data version (the request's own). A decision depends only on the database and the caller's
 * token, so until either changes (any write moves the version) it stands. Refusals are not
 * kept; they are decided again each time.
 */
export function cachedAuthorizedLookups(lookups: AuthorizedLookups, budget: CacheBudget): AtVersions<AuthorizedLookups> {
  const granted = new VersionedCache<object>(budgetedOptions(budget));
  return (versions) => {
    const version = versions?.data;
    if (version === undefined) return lookups;
    const remembered = async <T extends object>(principal: Principal, what: string, decide: () => Promise<T>): Promise<T> => {
      const key = `${principal.kind === 'anonymous' ? 'anonymous' : principal.tokenId}\n${what}`;
      const known = granted.get(version, key);
      if (known) return known as T;
      const decision = await decide();
      granted.set(version, key, decision);
      return decision;
    };
    return {
      org: outsideTransactions((...args) => lookups.org(...args), (db, principal, operation, login) =>
        remembered(principal, `org\n${operation}\n${login}`, () => lookups.org(db, principal, operation, login))),
      repo: outsideTransactions((...args) => lookups.repo(...args), (db, principal, operation, owner, name) =>
        remembered(principal, `repo\n${operation}\n${owner}\n${name}`, () => lookups.repo(db, principal, operation, owner, name))),
      enterprise: (...args) => lookups.enterprise(...args),
      visibleOrg: (...args) => lookups.visibleOrg(...args),
      visibleEnterprise: (...args) => lookups.visibleEnterprise(...args),
      visibleEnterpriseById: (...args) => lookups.visibleEnterpriseById(...args),
      visibleRepo: (...args) => lookups.visibleRepo(...args),
    };
  };
}
