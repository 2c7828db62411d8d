import type { BatchLookup } from '../../cache/cached-batch';
import type { KeysetListRequest } from '../../database/keyset';
import type { Executor } from '../../database/transaction';
import type { RepositoryRecord, UserRecord } from '../accounts/accounts.types';
import type { AdvisoryRecord, AdvisoryVulnerability, EpssFilter } from '../advisories/advisories.types';
import type { AdvisoryAlertJson } from '../advisories/advisory-alert-json';

// Vocabulary of spec §3 and §4.4.
export const ALERT_STATES = ['auto_dismissed', 'dismissed', 'fixed', 'open'] as const;
export const DISMISSED_REASONS = ['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const RELATIONSHIPS = ['unknown', 'direct', 'transitive', 'inconclusive'] as const;
export const SCOPES = ['development', 'runtime'] as const;
export const CLASSIFICATIONS = ['general', 'malware'] as const;
export const ARTIFACT_REGISTRIES = ['vendorx-artifactory'] as const;
export const RUNTIME_RISKS = ['critical-resource', 'internet-exposed', 'sensitive-data', 'lateral-movement'] as const;
export const SORTS = ['created', 'updated', 'epss_percentage'] as const;

export type AlertState = (typeof ALERT_STATES)[number];
export type DismissedReason = (typeof DISMISSED_REASONS)[number];
export type AlertSort = (typeof SORTS)[number];

export interface AlertRecord {
  id: number;
  repoId: number;
  number: number;
  advisoryId: number;
  ecosystem: string;
  packageName: string;
  manifestPath: string;
  scope: string;
  relationship: string;
  state: AlertState;
  createdAt: string;
  updatedAt: string;
  fixedAt: string | null;
  autoDismissedAt: string | null;
  dismissedAt: string | null;
  dismissedById: number | null;
  dismissedReason: DismissedReason | null;
  dismissedComment: string | null;
  epssSort: number;
  version: number;
  /** The vulnerability row the dependency matched; null on an alert a world file declared and no snapshot matched. */
  vulnerabilityId: number | null;
  /** Why an auto_dismissed alert is so (src/modules/alert-engine); null when a world file declared it. */
  autoDismissedBy: AutoDismissal | null;
}

export type AutoDismissal = 'rule' | 'preset' | 'withdrawal';

/** Whose alert events a live subscriber follows: an organization's repositories, or one repository. */
export type AlertEventScope = { kind: 'org'; login: string } | { kind: 'repo'; owner: string; name: string };

/** Which alerts a list covers: one repository, one organization, or several organizations. */
export type AlertScope = { kind: 'repo'; repoId: number } | { kind: 'owners'; ownerIds: number[] };

export interface AlertFilters {
  classification?: string[];
  state?: string[];
  severity?: string[];
  ecosystem?: string[];
  package?: string[];
  manifest?: string[];
  relationship?: string[];
  epssPercentage?: EpssFilter;
  hasPatch?: boolean;
  hasDeployment?: boolean;
  assignee?: { kind: 'any' } | { kind: 'none' } | { kind: 'logins'; logins: string[] };
  scope?: string;
  artifactRegistryUrl?: string[];
  artifactRegistry?: string[];
  runtimeRisk?: string[];
}

/** Restrictions that come from the caller, not the query. */
export interface AlertVisibility {
  publicOnly: boolean;
  repositoryIds: ReadonlySet<number> | 'all';
}

/** A list of alerts as both doors ask for it (REST query, GraphQL arguments): validated, in domain terms. */
export type AlertListRequest = KeysetListRequest<AlertFilters, AlertSort>;

/** The alert a change is about (#27). */
export interface AlertRef {
  owner: string;
  repo: string;
  number: number;
}

/** A requested change to an alert (#27, GraphQL updateDependencyAlert): validated, in domain terms. */
export interface AlertPatch {
  state?: 'dismissed' | 'open';
  dismissedReason?: DismissedReason;
  dismissedComment?: string | null;
  assignees?: string[];
}

/** An alert's assignees (user ids, ascending) as of one version of the alert. */
export interface AlertAssignees {
  version: number;
  userIds: number[];
}

/** An alert with everything its REST and GraphQL shapes show. */
export interface AlertView {
  alert: AlertRecord;
  advisory: AdvisoryRecord;
  vulnerability: AdvisoryVulnerability | null;
  assignees: UserRecord[];
  dismissedBy: UserRecord | null;
  repository: RepositoryRecord;
}

/** What an alert shows, with its advisory in the form `A` it is read in. */
export type AlertViewWith<A> = Omit<AlertView, 'advisory' | 'vulnerability'> & { advisory: A };

/** An alert as its REST JSON is written: its advisory as alerts embed it, stored (advisory-alert-json.ts). */
export type AlertJsonView = AlertViewWith<AdvisoryAlertJson>;

/** An alert as a list names it: its id and the version the list read (dependency_alerts.version). */
export interface AlertKey {
  id: number;
  version: number;
}

/** Values of the alerts named, by alert id; each carries the version it was read at. */
export type AlertsAt<V> = (db: Executor, keys: readonly AlertKey[]) => Promise<Map<number, V>>;

/**
 * The batch look-ups what alerts show is loaded with (cached in composition/index.ts): their
 * assignees at the alert versions asked for (cache/cached-at-row-versions.ts, whose RowKey an
 * AlertKey is), the records they refer to by id.
 */
export interface AlertReferences {
  assigneesAt: AlertsAt<AlertAssignees>;
  advisoriesByIds: BatchLookup<AdvisoryRecord>;
  advisoryJsonByIds: BatchLookup<AdvisoryAlertJson>;
  repositoriesByIds: BatchLookup<RepositoryRecord>;
  usersByIds: BatchLookup<UserRecord>;
}
