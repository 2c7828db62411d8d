import type { Executor } from '../../database/transaction';
import { lockForUpdate, toBoolean } from '../../database/dialect';
import { parseJsonColumn, toJsonColumn } from '../../shared/json';
import type { InclusionSource } from './oidc.types';

export interface StoredRepoTemplate {
  useDefault: boolean;
  /** null: follow the organization's template. */
  includeClaimKeys: string[] | null;
  useImmutableSubject: boolean;
}

const INCLUSIONS: Record<InclusionSource, { table: string; owner: string }> = {
  enterprise: { table: 'enterprise_oidc_property_inclusions', owner: 'enterprise_id' },
  organization: { table: 'organization_oidc_property_inclusions', owner: 'org_id' },
};

/** Actions OIDC customization: property inclusions and subject-claim templates. */
export class OidcStore {
  /** Included property names, oldest first. */
  async listInclusions(db: Executor, level: InclusionSource, ownerId: number): Promise<string[]> {
    const { table, owner } = INCLUSIONS[level];
    const rows = await db(table).where(owner, ownerId).orderBy(['created_at', 'custom_property_name']).select('custom_property_name');
    return rows.map((r) => r.custom_property_name);
  }

  /** Inserts an inclusion; false when it already existed (of concurrent creators, one wins). */
  async addInclusion(db: Executor, level: InclusionSource, ownerId: number, name: string, now: string): Promise<boolean> {
    const { table, owner } = INCLUSIONS[level];
    const inserted = await db(table)
      .insert({ [owner]: ownerId, custom_property_name: name, created_at: now })
      .onConflict([owner, 'custom_property_name'])
      .ignore()
      .returning('custom_property_name');
    return inserted.length > 0;
  }

  /** Deletes an inclusion; false when there was none. */
  async removeInclusion(db: Executor, level: InclusionSource, ownerId: number, name: string): Promise<boolean> {
    const { table, owner } = INCLUSIONS[level];
    return (await db(table).where({ [owner]: ownerId, custom_property_name: name }).delete()) > 0;
  }

  async isOrgPropertyDefined(db: Executor, orgId: number, name: string): Promise<boolean> {
    return (await db('organization_custom_properties').where({ org_id: orgId, name }).first('name')) !== undefined;
  }

  /** Whether any organization of the enterprise defines the property. */
  async isEnterprisePropertyDefined(db: Executor, enterpriseId: number, name: string): Promise<boolean> {
    const row = await db('organization_custom_properties as p')
      .join('organizations as o', 'o.account_id', 'p.org_id')
      .where({ 'o.enterprise_id': enterpriseId, 'p.name': name })
      .first('p.name');
    return row !== undefined;
  }

  /** Serializes read-then-write of an organization's or repository's template (a row lock on PostgreSQL). */
  async lockOwner(db: Executor, kind: 'organization' | 'repository', id: number): Promise<void> {
    const query = kind === 'organization' ? db('organizations').where('account_id', id).first('account_id') : db('repositories').where('id', id).first('id');
    await lockForUpdate(query);
  }

  async findOrgTemplate(db: Executor, orgId: number): Promise<{ includeClaimKeys: string[]; useImmutableSubject: boolean } | undefined> {
    const row = await db('organization_oidc_subject_templates').where('org_id', orgId).first('include_claim_keys', 'use_immutable_subject');
    return row ? { includeClaimKeys: parseJsonColumn<string[]>(row.include_claim_keys, []), useImmutableSubject: toBoolean(row.use_immutable_subject) } : undefined;
  }

  async saveOrgTemplate(db: Executor, orgId: number, template: { includeClaimKeys: string[]; useImmutableSubject: boolean }, now: string): Promise<void> {
    const values = { include_claim_keys: toJsonColumn(template.includeClaimKeys), use_immutable_subject: template.useImmutableSubject, updated_at: now };
    await db('organization_oidc_subject_templates').insert({ org_id: orgId, ...values }).onConflict('org_id').merge(Object.keys(values));
  }

  async findRepoTemplate(db: Executor, repoId: number): Promise<StoredRepoTemplate | undefined> {
    const row = await db('repository_oidc_subject_templates').where('repo_id', repoId).first('use_default', 'include_claim_keys', 'use_immutable_subject');
    if (!row) return undefined;
    return {
      useDefault: toBoolean(row.use_default),
      includeClaimKeys: row.include_claim_keys === null ? null : parseJsonColumn<string[]>(row.include_claim_keys, []),
      useImmutableSubject: toBoolean(row.use_immutable_subject),
    };
  }

  async saveRepoTemplate(db: Executor, repoId: number, template: StoredRepoTemplate, now: string): Promise<void> {
    const values = {
      use_default: template.useDefault,
      include_claim_keys: template.includeClaimKeys === null ? null : toJsonColumn(template.includeClaimKeys),
      use_immutable_subject: template.useImmutableSubject,
      updated_at: now,
    };
    await db('repository_oidc_subject_templates').insert({ repo_id: repoId, ...values }).onConflict('repo_id').merge(Object.keys(values));
  }
}
