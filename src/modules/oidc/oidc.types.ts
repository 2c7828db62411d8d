export type InclusionSource = 'enterprise' | 'organization';

export interface PropertyInclusion {
  customPropertyName: string;
  source: InclusionSource;
}

export interface OrgSubjectTemplate {
  includeClaimKeys: string[];
  useImmutableSubject: boolean;
}

/** What #19 shows: the keys in effect, whatever their source. */
export interface RepoSubjectTemplate {
  useDefault: boolean;
  includeClaimKeys: string[];
  useImmutableSubject: boolean;
}

/** The default subject template (reference.md): `repo:ORG/REPO:<context>`. */
export const DEFAULT_CLAIM_KEYS: readonly string[] = ['repo', 'context'];
