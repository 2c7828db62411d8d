import type { ECOSYSTEMS } from '../advisories/ecosystems';
import type { SCOPES, SEVERITIES } from '../dependency-alerts/alerts.types';

// Auto-triage's vocabulary (interfaces.md Part 2 "Auto-triage rules").

export const ORG_ENFORCEMENTS = ['enforced', 'enabled', 'disabled'] as const;
export const REPO_ENFORCEMENTS = ['enabled', 'disabled'] as const;
export const RULE_ACTIONS = ['dismiss', 'dismiss_until_patch'] as const;

export type Enforcement = (typeof ORG_ENFORCEMENTS)[number];
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** A rule's conditions: each list matches any of its values; every condition given must match. */
export interface RuleConditions {
  severity?: Array<(typeof SEVERITIES)[number]>;
  scope?: Array<(typeof SCOPES)[number]>;
  ecosystem?: Array<(typeof ECOSYSTEMS)[number]>;
  package?: string[];
  /** `CWE-<n>`. */
  cwe?: string[];
  svcsaId?: string[];
  cveId?: string[];
  /** Manifest paths; repository rules only. */
  manifest?: string[];
  hasPatch?: boolean;
}

/** Whose a rule or preset is: an organization's (account id) or a repository's. */
export type RuleOwner = { kind: 'org'; orgId: number } | { kind: 'repo'; repoId: number };

export interface TriageRule {
  id: number;
  name: string;
  enforcement: Enforcement;
  conditions: RuleConditions;
  action: RuleAction;
  createdAt: string;
  updatedAt: string;
}

export interface RuleInput {
  name: string;
  enforcement: Enforcement;
  conditions: RuleConditions;
  action: RuleAction;
}

export type RulePatch = Partial<RuleInput>;

/** The preset switches of one organization or repository; null: the default. */
export interface PresetSettings {
  lowImpactDevelopment: boolean | null;
}
