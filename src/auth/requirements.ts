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
 * Each caller rule in words, the one table: `field` in the descriptions of the GraphQL fields
 * behind an operation (callersOf in src/operations), `who` in the API docs (openapi/document.ts,
 * "Who may call"), `refusal` as the 403's message (auth/authorizer.ts). The rules themselves
 * are decided in authorizer.ts and caller-rules.ts.
 */
export const CALLER_RULE_WORDING: Record<CallerRule, { field: string; who: string; refusal: string }> = {
  orgAdmin: {
    field: 'owners',
    who: 'an owner of the organization',
    refusal: 'You must be an organization owner to perform this operation.',
  },
  orgRoleReader: {
    field: 'owners, and members who may view roles',
    who: 'an owner of the organization, or a member holding an organization role with `read_organization_custom_org_role`',
    refusal: 'You must be an organization owner or hold a role that can view organization roles.',
  },
  orgSecurityManager: {
    field: 'owners and security managers',
    who: 'an owner or security manager of the organization',
    refusal: 'You must be an organization owner or security manager to perform this operation.',
  },
  orgOidcAdmin: {
    field: 'owners, and members who manage OIDC settings',
    who: 'an owner of the organization, or a member holding an organization role with `write_organization_oidc_settings` (such as `ci_cd_admin`)',
    refusal: 'You must be an organization owner or hold a role that manages OIDC settings to perform this operation.',
  },
  enterpriseOwner: {
    field: 'enterprise owners',
    who: 'an owner of the enterprise',
    refusal: 'You must be an enterprise owner to perform this operation.',
  },
  enterpriseMember: {
    field: 'enterprise members',
    who: 'a member of the enterprise',
    refusal: 'You must be a member of the enterprise to perform this operation.',
  },
  repoReader: {
    field: 'readers of the repository',
    who: 'someone who can read the repository',
    refusal: 'You must have read access to the repository to perform this operation.',
  },
  repoWriter: {
    field: 'writers to the repository',
    who: 'someone who can write to the repository',
    refusal: 'You must have write access to the repository to perform this operation.',
  },
  repoAlertManager: {
    field: 'writers, organization owners and security managers',
    who: 'someone who may see and triage the repository\'s security alerts (writers, maintainers, admins, organization owners and security managers)',
    refusal: 'You must have access to security alerts for the repository to perform this operation.',
  },
  repoAdmin: {
    field: 'repository admins',
    who: 'an admin of the repository (owners of its organization are)',
    refusal: 'You must be a repository admin to perform this operation.',
  },
  repoSecurityAdmin: {
    field: 'admins, organization owners and security managers',
    who: 'an admin of the repository, an owner of its organization, or a security manager of its organization',
    refusal: 'You must be a repository admin, an organization owner or a security manager to perform this operation.',
  },
  anyone: {
    field: 'anyone',
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
