import { repoTarget, type Authorizer, type Decision } from '../../auth/authorizer';
import type { Principal } from '../../auth/principal';
import type { OperationName } from '../../operations';
import type { Executor } from '../../database/transaction';
import type { AccountsStore } from './accounts.store';
import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord } from './accounts.types';

/**
 * Finds the organization, enterprise or repository a request names and authorizes the
 * operation on it, in one step: a missing thing and a hidden one answer alike (404).
 */
export interface AuthorizedLookups {
  org(db: Executor, principal: Principal, operation: OperationName, login: string): Promise<OrganizationRecord & { decision: Decision }>;
  enterprise(db: Executor, principal: Principal, operation: OperationName, slug: string): Promise<EnterpriseRecord>;
  /** An organization, enterprise or repository by name if the caller may see it, else undefined. */
  visibleOrg(db: Executor, principal: Principal, login: string): Promise<OrganizationRecord | undefined>;
  visibleEnterprise(db: Executor, principal: Principal, slug: string): Promise<EnterpriseRecord | undefined>;
  visibleEnterpriseById(db: Executor, principal: Principal, id: number): Promise<EnterpriseRecord | undefined>;
  visibleRepo(db: Executor, principal: Principal, owner: string, name: string): Promise<RepositoryRecord | undefined>;
  repo(db: Executor, principal: Principal, operation: OperationName, owner: string, name: string): Promise<RepositoryRecord & { decision: Decision }>;
}

/** The look-ups as the stores and the authorizer answer them. */
export class StoreAuthorizedLookups implements AuthorizedLookups {
  constructor(private readonly deps: { accounts: AccountsStore; authorizer: Authorizer }) {}

  async org(db: Executor, principal: Principal, operation: OperationName, login: string): Promise<OrganizationRecord & { decision: Decision }> {
    const org = await this.deps.accounts.findOrganizationByLogin(db, login);
    const decision = await this.deps.authorizer.assertAllowed(db, principal, operation, org ? { kind: 'org', orgId: org.id } : null);
    return { ...org!, decision };
  }

  async enterprise(db: Executor, principal: Principal, operation: OperationName, slug: string): Promise<EnterpriseRecord> {
    const enterprise = await this.deps.accounts.findEnterpriseBySlug(db, slug);
    await this.deps.authorizer.assertAllowed(db, principal, operation, enterprise ? { kind: 'enterprise', enterpriseId: enterprise.id } : null);
    return enterprise!;
  }

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

  async repo(db: Executor, principal: Principal, operation: OperationName, owner: string, name: string): Promise<RepositoryRecord & { decision: Decision }> {
    const repo = await this.deps.accounts.findRepository(db, owner, name);
    const decision = await this.deps.authorizer.assertAllowed(db, principal, operation, repo ? repoTarget(repo) : null);
    return { ...repo!, decision };
  }
}
