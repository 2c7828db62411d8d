import type { PermissionKey, PermissionLevel, Scope } from './grants';

/** Who the caller must be, besides what the token grants (spec §5 "Who may call"). */
export type CallerRule =
  | 'orgAdmin'
  | 'orgRoleReader'
  | 'orgSecurityManager'
  | 'orgOidcAdmin'
  | 'enterpriseOwner'
  | 'enterpriseMember'
  | 'repoReader'
  | 'repoWriter'
  | 'repoAlertManager'
  | 'repoAdmin'
  | 'repoSecurityAdmin'
  | 'anyone';

/**
 * Each caller rule in words, the one table: `who` in the API docs (openapi/document.ts,
 * "Who may call"), `refusal` as the 403's message (auth/authorizer.ts). The rules themselves
 * are decided in authorizer.ts and caller-rules.ts.
 */
export const CALLER_RULE_WORDING: Record<CallerRule, { who: string; refusal: string }> = {
  orgAdmin: {
    who: 'an owner of the organization',
    refusal: 'You must be an organization owner to perform this operation.',
  },
  orgRoleReader: {
    who: 'an owner of the organization, or a member holding an organization role with `read_organization_custom_org_role`',
    refusal: 'You must be an organization owner or hold a role that can view organization roles.',
  },
  orgSecurityManager: {
    who: 'an owner or security manager of the organization',
    refusal: 'You must be an organization owner or security manager to perform this operation.',
  },
  orgOidcAdmin: {
    who: 'an owner of the organization, or a member holding an organization role with `write_organization_oidc_settings` (such as `ci_cd_admin`)',
    refusal: 'You must be an organization owner or hold a role that manages OIDC settings to perform this operation.',
  },
  enterpriseOwner: {
    who: 'an owner of the enterprise',
    refusal: 'You must be an enterprise owner to perform this operation.',
  },
  enterpriseMember: {
    who: 'a member of the enterprise',
    refusal: 'You must be a member of the enterprise to perform this operation.',
  },
  repoReader: {
    who: 'someone who can read the repository',
    refusal: 'You must have read access to the repository to perform this operation.',
  },
  repoWriter: {
    who: 'someone who can write to the repository',
    refusal: 'You must have write access to the repository to perform this operation.',
  },
  repoAlertManager: {
    who: 'someone who may see and triage the repository\'s security alerts (writers, maintainers, admins, organization owners and security managers)',
    refusal: 'You must have access to security alerts for the repository to perform this operation.',
  },
  repoAdmin: {
    who: 'an admin of the repository (owners of its organization are)',
    refusal: 'You must be a repository admin to perform this operation.',
  },
  repoSecurityAdmin: {
    who: 'an admin of the repository, an owner of its organization, or a security manager of its organization',
    refusal: 'You must be a repository admin, an organization owner or a security manager to perform this operation.',
  },
  anyone: {
    who: 'anyone, with or without a token',
    refusal: 'Anyone may perform this operation.', // never refused: the rule always holds
  },
};

/** `public`: data that belongs to no account (the global advisory database), readable by every caller. */
export type TargetKind = 'org' | 'enterprise' | 'repo' | 'public';

/**
 * An operation's two checks (spec §5): what the token must grant, and who the caller must
 * be, on a target of one kind. Each operation's entry in src/operations holds one.
 */
export interface Requirement {
  target: TargetKind;
  /** Classic/OAuth scopes, any one of which suffices. */
  scopes: readonly Scope[];
  /** Scopes that suffice only when every repository touched is public. */
  publicScopes?: readonly Scope[];
  /** Fine-grained permission; null: fine-grained and app tokens are not accepted. */
  permission: readonly [PermissionKey, PermissionLevel] | null;
  caller: CallerRule;
  /** Callable without a token (and without the grant) on a public repository. */
  publicRead?: boolean;
}
