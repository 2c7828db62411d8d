import type { PermissionKey, PermissionLevel, Scope } from './grants';

/** Who the caller must be, besides what the token grants (spec §5 "Who may call"). */
export type CallerRule =
  | 'orgAdmin' // an organization owner
  | 'orgRoleReader' // an owner, or holding a role with read_organization_custom_org_role
  | 'orgSecurityManager' // an owner or security manager
  | 'orgOidcAdmin' // an owner, or holding a role with write_organization_oidc_settings (ci_cd_admin)
  | 'enterpriseOwner'
  | 'enterpriseMember'
  | 'repoReader'
  | 'repoWriter'
  | 'repoAlertManager' // may see and triage security alerts of the repository
  | 'repoAdmin' // a repository admin (organization owners are)
  | 'repoSecurityAdmin' // a repository admin (organization owners are), or a security manager of its organization
  | 'anyone'; // public reference data (the global advisory database): any caller, with or without a token

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
