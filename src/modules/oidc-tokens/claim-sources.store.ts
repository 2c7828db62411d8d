import { toBoolean } from '../../database/dialect';
import type { Executor } from '../../database/transaction';
import { parseJsonColumn } from '../../shared/json';
import { templateInEffect } from '../oidc/effective-template';
import { DEFAULT_CLAIM_KEYS } from '../oidc/oidc.types';
import type { ClaimSources } from './oidc-tokens.types';

/** A custom property value as a claim: multi-select values joined with commas, booleans as "true"/"false". */
function claimValueOf(stored: unknown): string {
  const value = parseJsonColumn<unknown>(stored, '');
  if (Array.isArray(value)) return value.map(String).join(',');
  return String(value);
}

/**
 * What a repository's tokens take from orgsec's data (reference.md "OIDC token claims"), for
 * many repositories in two statements: the repository with its owner, enterprise and both
 * subject templates; and the values of the custom properties included at enterprise or
 * organization level (#11–#16). composition.ts keeps the answers per data version.
 */
export class ClaimSourcesStore {
  async byRepoIds(db: Executor, ids: readonly number[]): Promise<Map<number, ClaimSources>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const [rows, values] = await Promise.all([
      db('repositories as r')
        .join('accounts as o', 'o.id', 'r.owner_id')
        .leftJoin('organizations as org', 'org.account_id', 'r.owner_id')
        .leftJoin('enterprises as e', 'e.id', 'org.enterprise_id')
        .leftJoin('repository_oidc_subject_templates as rt', 'rt.repo_id', 'r.id')
        .leftJoin('organization_oidc_subject_templates as ot', 'ot.org_id', 'r.owner_id')
        .whereIn('r.id', unique)
        .select(
          'r.id', 'r.name', 'r.private', 'r.owner_id', 'o.login as owner_login', 'o.type as owner_type', 'e.id as enterprise_id', 'e.slug as enterprise_slug',
          'rt.repo_id as repo_template', 'rt.use_default', 'rt.include_claim_keys as repo_keys', 'rt.use_immutable_subject as repo_immutable',
          'ot.org_id as org_template', 'ot.include_claim_keys as org_keys', 'ot.use_immutable_subject as org_immutable',
        ),
      db('repository_custom_property_values as v')
        .join('repositories as r', 'r.id', 'v.repo_id')
        .leftJoin('organizations as org', 'org.account_id', 'r.owner_id')
        .whereIn('v.repo_id', unique)
        .where((included) => included
          .whereExists((q) => q.select(db.raw('1')).from('organization_oidc_property_inclusions as i')
            .whereRaw('i.org_id = r.owner_id').andWhereRaw('i.custom_property_name = v.name'))
          .orWhereExists((q) => q.select(db.raw('1')).from('enterprise_oidc_property_inclusions as ei')
            .whereRaw('ei.enterprise_id = org.enterprise_id').andWhereRaw('ei.custom_property_name = v.name')))
        .orderBy(['v.repo_id', 'v.name'])
        .select('v.repo_id', 'v.name', 'v.value'),
    ]);
    const properties = new Map<number, Array<readonly [string, string]>>();
    for (const v of values) {
      const id = Number(v.repo_id);
      properties.set(id, [...(properties.get(id) ?? []), [v.name as string, claimValueOf(v.value)] as const]);
    }
    return new Map(rows.map((r): [number, ClaimSources] => {
      const id = Number(r.id);
      const stored = r.repo_template === null ? undefined : {
        useDefault: toBoolean(r.use_default),
        includeClaimKeys: r.repo_keys === null ? null : parseJsonColumn<string[]>(r.repo_keys, []),
        useImmutableSubject: toBoolean(r.repo_immutable),
      };
      const org = r.owner_type !== 'Organization' ? undefined : r.org_template === null
        ? { includeClaimKeys: [...DEFAULT_CLAIM_KEYS], useImmutableSubject: false }
        : { includeClaimKeys: parseJsonColumn<string[]>(r.org_keys, []), useImmutableSubject: toBoolean(r.org_immutable) };
      const template = templateInEffect(stored, org);
      return [id, {
        repository: { id, name: r.name, isPrivate: toBoolean(r.private) },
        owner: { id: Number(r.owner_id), login: r.owner_login },
        enterprise: r.enterprise_id === null ? null : { id: Number(r.enterprise_id), slug: r.enterprise_slug },
        subject: { includeClaimKeys: template.includeClaimKeys, useImmutableSubject: template.immutableInEffect },
        properties: properties.get(id) ?? [],
      }];
    }));
  }
}
