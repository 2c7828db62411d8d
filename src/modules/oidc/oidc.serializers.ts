import type { OrgSubjectTemplate, PropertyInclusion, RepoSubjectTemplate } from './oidc.types';

/** #11 items and the #12/#15 answers (spec §2.5, plus reference.md's inclusion_source). */
export function serializeInclusion(inclusion: PropertyInclusion) {
  return { custom_property_name: inclusion.customPropertyName, inclusion_source: inclusion.source };
}

/** #14 items keep the spec's property_name beside the common fields. */
export function serializeOrgInclusion(inclusion: PropertyInclusion) {
  return { property_name: inclusion.customPropertyName, ...serializeInclusion(inclusion) };
}

export function serializeOrgTemplate(template: OrgSubjectTemplate) {
  return { include_claim_keys: template.includeClaimKeys, use_immutable_subject: template.useImmutableSubject };
}

export function serializeRepoTemplate(template: RepoSubjectTemplate) {
  return { use_default: template.useDefault, include_claim_keys: template.includeClaimKeys, use_immutable_subject: template.useImmutableSubject, sub_claim_prefix: template.subClaimPrefix };
}
