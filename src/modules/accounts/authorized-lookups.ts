import { repoTarget, type Authorizer, type Decision } from '../../auth/authorizer';
import type { Principal } from '../../auth/principal';
import type { OperationName } from '../../operations';
import { VersionedCache } from '../../cache/versioned-cache';
import type { Executor } from '../../database/transaction';
import type { AccountsStore } from './accounts.store';
import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord } from './accounts.types';

/**
 * Finds the organization, enterprise or repository a request names and authorizes the
 * operation on it, in one step: a missing thing and a hidden one answer alike (404).
 */
export class AuthorizedLookups {
  /**
   * Granted look-ups per data version: a decision depends only on the database and the
   * caller's token, so until either changes (any write moves the version) it stands.
   * Refusals are not kept; they are decided again each time.
   */
  private readonly granted = new VersionedCache<object>({ maxSize: 20_000, sizeOf: () => 1 });

  constructor(private readonly deps: { accounts: AccountsStore; authorizer: Authorizer }) {}

  /** `dataVersion`: the version the request read first; never given inside a write transaction. */
  async org(db: Executor, principal: Principal, operation: OperationName, login: string, dataVersion?: number): Promise<OrganizationRecord & { decision: Decision }> {
    return this.remembered(dataVersion, principal, `org\n${operation}\n${login}`, async () => {
      const org = await this.deps.accounts.findOrganizationByLogin(db, login);
      const decision = await this.deps.authorizer.assertAllowed(db, principal, operation, org ? { kind: 'org', orgId: org.id } : null);
      return { ...org!, decision };
    });
  }

  private async remembered<T extends object>(dataVersion: number | undefined, principal: Principal, what: string, decide: () => Promise<T>): Promise<T> {
    if (dataVersion === undefined) return decide();
    const key = `${principal.kind === 'anonymous' ? 'anonymous' : principal.tokenId}\n${what}`;
    const known = this.granted.get(dataVersion, key);
    if (known) return known as T;
    const granted = await decide();
    this.granted.set(dataVersion, key, granted);
    return granted;
  }

  async enterprise(db: Executor, principal: Principal, operation: OperationName, slug: string): Promise<EnterpriseRecord> {
    const enterprise = await this.deps.accounts.findEnterpriseBySlug(db, slug);
    await this.deps.authorizer.assertAllowed(db, principal, operation, enterprise ? { kind: 'enterprise', enterpriseId: enterprise.id } : null);
    return enterprise!;
  }

  /** An organization, enterprise or repository by name if the caller may see it, else undefined. */
  async visibleOrg(db: Executor, principal: Principal, login: string): Promise<OrganizationRecord | undefined> {
    const org = await this.deps.accounts.findOrganizationByLogin(db, login);
    return org && (await this.deps.authorizer.isVisible(db, principal, { kind: 'org', orgId: org.id })) ? org : undefined;
  }

  async visibleEnterprise(db: Executor, principal: Principal, slug: string): Promise<EnterpriseRecord | undefined> {
    const enterprise = await this.deps.accounts.findEnterpriseBySlug(db, slug);
    return enterprise && (await this.deps.authorizer.isVisible(db, principal, { kind: 'enterprise', enterpriseId: enterprise.id })) ? enterprise : undefined;
  }

  async visibleEnterpriseById(db: Executor, principal: Principal, id: number): Promise<EnterpriseRecord | undefined> {
    const enterprise = await this.deps.accounts.findEnterpriseById(db, id);
    return enterprise && (await this.deps.authorizer.isVisible(db, principal, { kind: 'enterprise', enterpriseId: enterprise.id })) ? enterprise : undefined;
  }

  async visibleRepo(db: Executor, principal: Principal, owner: string, name: string): Promise<RepositoryRecord | undefined> {
    const repo = await this.deps.accounts.findRepository(db, owner, name);
    return repo && (await this.deps.authorizer.isVisible(db, principal, repoTarget(repo))) ? repo : undefined;
  }

  async repo(db: Executor, principal: Principal, operation: OperationName, owner: string, name: string, dataVersion?: number): Promise<RepositoryRecord & { decision: Decision }> {
    return this.remembered(dataVersion, principal, `repo\n${operation}\n${owner}\n${name}`, async () => {
      const repo = await this.deps.accounts.findRepository(db, owner, name);
      const decision = await this.deps.authorizer.assertAllowed(db, principal, operation, repo ? repoTarget(repo) : null);
      return { ...repo!, decision };
    });
  }
}
