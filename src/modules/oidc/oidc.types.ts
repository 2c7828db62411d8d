export type InclusionSource = 'enterprise' | 'organization';

export interface PropertyInclusion {
  customPropertyName: string;
  source: InclusionSource;
}

export interface OrgSubjectTemplate {
  includeClaimKeys: string[];
  useImmutableSubject: boolean;
}

/** #18's change, as both doors ask for it: validated, in domain terms. */
export interface OrgTemplateUpdate {
  includeClaimKeys: string[];
  /** Kept as it is when not given. */
  useImmutableSubject?: boolean | undefined;
}

/** #20's change, as both doors ask for it: validated, in domain terms. */
export interface RepoTemplateUpdate {
  useDefault: boolean;
  includeClaimKeys?: string[] | undefined;
  useImmutableSubject?: boolean | undefined;
}

/** What #19 shows: the keys in effect, whatever their source. */
export interface RepoSubjectTemplate {
  useDefault: boolean;
  includeClaimKeys: string[];
  useImmutableSubject: boolean;
  /** The `repo` part of the subject its tokens get (immutable ids when in effect). */
  subClaimPrefix: string;
}

/** The default subject template (reference.md): `repo:ORG/REPO:<context>`. */
export const DEFAULT_CLAIM_KEYS: readonly string[] = ['repo', 'context'];
