import type { StoredRepoTemplate } from './oidc.store';
import { DEFAULT_CLAIM_KEYS, type OrgSubjectTemplate } from './oidc.types';

/** A repository's subject template as its tokens get it: #19 shows it, the claim builder uses it. */
export interface TemplateInEffect {
  useDefault: boolean;
  /** The keys in effect: the default, the organization's, or the repository's own. */
  includeClaimKeys: string[];
  /** The repository's own setting, as #19 shows it. */
  useImmutableSubject: boolean;
  /** Whether its subjects carry immutable ids (sub_claim_prefix follows this). */
  immutableInEffect: boolean;
}

/**
 * reference.md "OIDC customization": use_default (or never configured) → the default keys;
 * false without keys → the organization's template, as it is now; false with keys → its own.
 * use_immutable_subject is the repository's setting, else the organization's: a repository
 * never configured follows its organization; one that opts into the organization's template
 * takes its immutability too (either one opting in is enough); its own template or the
 * default keep its own setting. `org`: undefined for a repository a user owns.
 */
export function templateInEffect(stored: StoredRepoTemplate | undefined, org: OrgSubjectTemplate | undefined): TemplateInEffect {
  const orgImmutable = org?.useImmutableSubject ?? false;
  if (!stored) return { useDefault: true, includeClaimKeys: [...DEFAULT_CLAIM_KEYS], useImmutableSubject: false, immutableInEffect: orgImmutable };
  if (stored.useDefault) return { useDefault: true, includeClaimKeys: [...DEFAULT_CLAIM_KEYS], useImmutableSubject: stored.useImmutableSubject, immutableInEffect: stored.useImmutableSubject };
  if (stored.includeClaimKeys === null) {
    return {
      useDefault: false, includeClaimKeys: org ? [...org.includeClaimKeys] : [...DEFAULT_CLAIM_KEYS],
      useImmutableSubject: stored.useImmutableSubject, immutableInEffect: stored.useImmutableSubject || orgImmutable,
    };
  }
  return { useDefault: false, includeClaimKeys: stored.includeClaimKeys, useImmutableSubject: stored.useImmutableSubject, immutableInEffect: stored.useImmutableSubject };
}
