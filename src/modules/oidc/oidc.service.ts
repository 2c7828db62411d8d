import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { withTransaction, type Executor } from '../../database/transaction';
import { BadRequestError, NotFoundError, ValidationError } from '../../errors/domain';
import { nowTimestamp } from '../../shared/time';
import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord } from '../accounts/accounts.types';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import { subClaimPrefix } from '../oidc-tokens/claims';
import { templateInEffect } from './effective-template';
import type { OidcStore, StoredRepoTemplate } from './oidc.store';
import { actorOf } from '../audit-log/audit-actors';
import { changedFields } from '../audit-log/audit-changes';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import { DEFAULT_CLAIM_KEYS, type OrgSubjectTemplate, type OrgTemplateUpdate, type PropertyInclusion, type RepoSubjectTemplate, type RepoTemplateUpdate } from './oidc.types';

export interface OidcDeps {
  db: Knex;
  lookups: AuthorizedLookups;
  oidc: OidcStore;
  audit: AuditRecorder;
}

const RESOURCE = 'OidcCustomPropertyInclusion';

function alreadyExists(name: string): ValidationError {
  return new ValidationError('Inclusion already exists', [
    { resource: RESOURCE, field: 'custom_property_name', code: 'already_exists', message: `"${name}" is already included.` },
  ]);
}

/** Spec §4.2: which custom properties go into OIDC tokens, and the subject-claim templates. */
export class OidcService {
  constructor(private readonly deps: OidcDeps) {}

  async listEnterpriseInclusions(principal: Principal, slug: string): Promise<PropertyInclusion[]> {
    return (await this.listEnterpriseInclusionsWithEnterprise(principal, slug)).inclusions;
  }

  /** The same list with the enterprise it belongs to (a GraphQL payload shows both). */
  async listEnterpriseInclusionsWithEnterprise(principal: Principal, slug: string): Promise<{ enterprise: EnterpriseRecord; inclusions: PropertyInclusion[] }> {
    const { db, oidc } = this.deps;
    const enterprise = await this.deps.lookups.enterprise(db, principal, 'listEnterpriseOidcInclusions', slug);
    const inclusions = (await oidc.listInclusions(db, 'enterprise', enterprise.id)).map((name): PropertyInclusion => ({ customPropertyName: name, source: 'enterprise' }));
    return { enterprise, inclusions };
  }

  async createEnterpriseInclusion(principal: Principal, slug: string, name: string): Promise<PropertyInclusion> {
    return withTransaction(this.deps.db, async (trx) => {
      const enterprise = await this.deps.lookups.enterprise(trx, principal, 'createEnterpriseOidcInclusion', slug);
      // spec #12: 400 unless the name is a property one of the enterprise's organizations defines
      if (!(await this.deps.oidc.isEnterprisePropertyDefined(trx, enterprise.id, name))) {
        throw new BadRequestError(`No organization of the enterprise ${enterprise.slug} defines a custom property named "${name}".`);
      }
      if (!(await this.deps.oidc.addInclusion(trx, 'enterprise', enterprise.id, name, nowTimestamp()))) throw alreadyExists(name);
      await this.deps.audit.record(trx, actorOf(principal), [{
        action: 'oidc.custom_property_inclusion.create', operation: 'create', enterprise: { id: enterprise.id, slug: enterprise.slug }, data: { custom_property_name: name },
      }]);
      return { customPropertyName: name, source: 'enterprise' };
    });
  }

  async deleteEnterpriseInclusion(principal: Principal, slug: string, name: string): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const enterprise = await this.deps.lookups.enterprise(trx, principal, 'deleteEnterpriseOidcInclusion', slug);
      if (!(await this.deps.oidc.removeInclusion(trx, 'enterprise', enterprise.id, name))) throw new NotFoundError();
      await this.deps.audit.record(trx, actorOf(principal), [{
        action: 'oidc.custom_property_inclusion.destroy', operation: 'remove', enterprise: { id: enterprise.id, slug: enterprise.slug }, data: { custom_property_name: name },
      }]);
    });
  }

  async listOrgInclusions(principal: Principal, orgLogin: string): Promise<PropertyInclusion[]> {
    return (await this.listOrgInclusionsWithOrg(principal, orgLogin)).inclusions;
  }

  /** The same list with the organization (a GraphQL payload shows both). */
  async listOrgInclusionsWithOrg(principal: Principal, orgLogin: string): Promise<{ org: OrganizationRecord; inclusions: PropertyInclusion[] }> {
    const { db, oidc } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'listOrgOidcInclusions', orgLogin);
    const inclusions = (await oidc.listInclusions(db, 'organization', org.id)).map((name): PropertyInclusion => ({ customPropertyName: name, source: 'organization' }));
    return { org, inclusions };
  }

  async createOrgInclusion(principal: Principal, orgLogin: string, name: string): Promise<PropertyInclusion> {
    return withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'createOrgOidcInclusion', orgLogin);
      // spec #15: 400 unless the name is a property the organization defines
      if (!(await this.deps.oidc.isOrgPropertyDefined(trx, org.id, name))) {
        throw new BadRequestError(`The organization ${org.login} defines no custom property named "${name}".`);
      }
      if (!(await this.deps.oidc.addInclusion(trx, 'organization', org.id, name, nowTimestamp()))) throw alreadyExists(name);
      await this.deps.audit.record(trx, actorOf(principal), [{ action: 'oidc.custom_property_inclusion.create', operation: 'create', org, data: { custom_property_name: name } }]);
      return { customPropertyName: name, source: 'organization' };
    });
  }

  async deleteOrgInclusion(principal: Principal, orgLogin: string, name: string): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'deleteOrgOidcInclusion', orgLogin);
      if (!(await this.deps.oidc.removeInclusion(trx, 'organization', org.id, name))) throw new NotFoundError();
      await this.deps.audit.record(trx, actorOf(principal), [{ action: 'oidc.custom_property_inclusion.destroy', operation: 'remove', org, data: { custom_property_name: name } }]);
    });
  }

  /** #17: the organization's template, or the default one before any PUT. */
  async getOrgTemplate(principal: Principal, orgLogin: string): Promise<OrgSubjectTemplate> {
    return (await this.getOrgTemplateWithOrg(principal, orgLogin)).template;
  }

  /** #17 with the organization (a GraphQL payload shows both). */
  async getOrgTemplateWithOrg(principal: Principal, orgLogin: string): Promise<{ org: OrganizationRecord; template: OrgSubjectTemplate }> {
    const { db } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'getOrgOidcSubjectTemplate', orgLogin);
    return { org, template: await this.orgTemplateOf(db, org.id) };
  }

  /** #18: replaces the keys; use_immutable_subject stays as it was when not given. */
  async setOrgTemplate(principal: Principal, orgLogin: string, update: OrgTemplateUpdate): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'setOrgOidcSubjectTemplate', orgLogin);
      await this.deps.oidc.lockOwner(trx, 'organization', org.id);
      const stored = await this.deps.oidc.findOrgTemplate(trx, org.id);
      const next = { includeClaimKeys: update.includeClaimKeys, useImmutableSubject: update.useImmutableSubject ?? stored?.useImmutableSubject ?? false };
      await this.deps.oidc.saveOrgTemplate(trx, org.id, next, nowTimestamp());
      // Never set: each field `null` before (the default applied); set to the default, it is set from then on.
      const changes = changedFields(stored === undefined ? NOT_SET : orgTemplateFields(stored), orgTemplateFields(next));
      if (changes !== undefined) await this.deps.audit.record(trx, actorOf(principal), [{ action: 'oidc.subject_template.update', operation: 'modify', org, data: { changes } }]);
    });
  }

  /**
   * #19: the keys in effect. use_default (or never configured): the default keys, whatever
   * the organization's template; opted in without keys: the organization's template, as it
   * is now; with keys: the repository's own.
   */
  async getRepoTemplate(principal: Principal, owner: string, name: string): Promise<RepoSubjectTemplate> {
    return (await this.getRepoTemplateWithRepo(principal, owner, name)).template;
  }

  /** #19 with the repository (a GraphQL payload shows both). */
  async getRepoTemplateWithRepo(principal: Principal, owner: string, name: string): Promise<{ repo: RepositoryRecord; template: RepoSubjectTemplate }> {
    const { db, oidc } = this.deps;
    const repo = await this.deps.lookups.repo(db, principal, 'getRepoOidcSubjectTemplate', owner, name);
    const stored = await oidc.findRepoTemplate(db, repo.id);
    const org = repo.ownerType === 'Organization' ? await this.orgTemplateOf(db, repo.ownerId) : undefined;
    const { immutableInEffect, ...template } = templateInEffect(stored, org);
    return { repo, template: { ...template, subClaimPrefix: subClaimPrefix({ id: repo.ownerId, login: repo.ownerLogin }, repo, immutableInEffect) } };
  }

  /** #20: keys are ignored when use_default is true. */
  async setRepoTemplate(principal: Principal, owner: string, name: string, update: RepoTemplateUpdate): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const repo = await this.deps.lookups.repo(trx, principal, 'setRepoOidcSubjectTemplate', owner, name);
      await this.deps.oidc.lockOwner(trx, 'repository', repo.id);
      const current = await this.deps.oidc.findRepoTemplate(trx, repo.id);
      const next = {
        useDefault: update.useDefault,
        includeClaimKeys: update.useDefault ? null : update.includeClaimKeys ?? null,
        useImmutableSubject: update.useImmutableSubject ?? current?.useImmutableSubject ?? false,
      };
      await this.deps.oidc.saveRepoTemplate(trx, repo.id, next, nowTimestamp());
      const changes = changedFields(current === undefined ? NOT_SET : repoTemplateFields(current), repoTemplateFields(next));
      if (changes !== undefined) await this.deps.audit.record(trx, actorOf(principal), [{ action: 'oidc.subject_template.update', operation: 'modify', repo, data: { changes } }]);
    });
  }

  private async orgTemplateOf(db: Executor, orgId: number): Promise<OrgSubjectTemplate> {
    return (await this.deps.oidc.findOrgTemplate(db, orgId)) ?? { includeClaimKeys: [...DEFAULT_CLAIM_KEYS], useImmutableSubject: false };
  }
}

/** A template never set, for the audit log's `before`. */
const NOT_SET: Record<string, unknown> = {};

/** A template's fields as the API names them, for the audit log's before and after. */
function orgTemplateFields(template: OrgSubjectTemplate): Record<string, unknown> {
  return { include_claim_keys: template.includeClaimKeys, use_immutable_subject: template.useImmutableSubject };
}

function repoTemplateFields(template: StoredRepoTemplate): Record<string, unknown> {
  return { use_default: template.useDefault, include_claim_keys: template.includeClaimKeys, use_immutable_subject: template.useImmutableSubject };
}
