import type { Principal } from '../../auth/principal';
import { cacheableVersions } from '../../cache/request-versions';
import { VersionedCache } from '../../cache/versioned-cache';
import type { Executor } from '../../database/transaction';
import type { AuthorizedLookups } from './authorized-lookups';

/**
 * Wraps the authorized look-ups: granted organization and repository look-ups are kept per
 * data version (the request's own, see request-versions.ts). A decision depends only on the
 * database and the caller's token, so until either changes (any write moves the version) it
 * stands. Refusals are not kept; they are decided again each time.
 */
export class CachedAuthorizedLookups implements AuthorizedLookups {
  private readonly granted: VersionedCache<object>;

  constructor(private readonly lookups: AuthorizedLookups, maxEntries = 20_000) {
    this.granted = new VersionedCache<object>({ maxSize: maxEntries, sizeOf: () => 1 });
  }

  org: AuthorizedLookups['org'] = (db, principal, operation, login) =>
    this.remembered(db, principal, `org\n${operation}\n${login}`, () => this.lookups.org(db, principal, operation, login));

  repo: AuthorizedLookups['repo'] = (db, principal, operation, owner, name) =>
    this.remembered(db, principal, `repo\n${operation}\n${owner}\n${name}`, () => this.lookups.repo(db, principal, operation, owner, name));

  enterprise: AuthorizedLookups['enterprise'] = (...args) => this.lookups.enterprise(...args);
  visibleOrg: AuthorizedLookups['visibleOrg'] = (...args) => this.lookups.visibleOrg(...args);
  visibleEnterprise: AuthorizedLookups['visibleEnterprise'] = (...args) => this.lookups.visibleEnterprise(...args);
  visibleEnterpriseById: AuthorizedLookups['visibleEnterpriseById'] = (...args) => this.lookups.visibleEnterpriseById(...args);
  visibleRepo: AuthorizedLookups['visibleRepo'] = (...args) => this.lookups.visibleRepo(...args);

  private async remembered<T extends object>(db: Executor, principal: Principal, what: string, decide: () => Promise<T>): Promise<T> {
    const version = cacheableVersions(db)?.data;
    if (version === undefined) return decide();
    const key = `${principal.kind === 'anonymous' ? 'anonymous' : principal.tokenId}\n${what}`;
    const known = this.granted.get(version, key);
    if (known) return known as T;
    const granted = await decide();
    this.granted.set(version, key, granted);
    return granted;
  }
}
