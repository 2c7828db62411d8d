import type { AdvisoryRecord, AdvisoryVulnerability, AlertListRequest, EpssFilter } from '../dependency-alerts/alerts.types';
import type { AdvisorySeverity, AdvisoryType, Ecosystem } from './osv/osv.types';

// The global advisory list's vocabulary (interfaces.md "Advisory database"), in domain terms.

export const ADVISORY_TYPES = ['reviewed', 'unreviewed', 'malware'] as const;
/** `type` when the caller gives none: everything but malware, as the original's list. */
export const DEFAULT_ADVISORY_TYPES: readonly AdvisoryType[] = ['reviewed', 'unreviewed'];
export const ADVISORY_SEVERITIES = ['unknown', 'low', 'medium', 'high', 'critical'] as const;
export const ADVISORY_SORTS = ['published', 'updated', 'epss_percentage', 'epss_percentile'] as const;
export const MAX_AFFECTS = 1000;

export type AdvisorySort = (typeof ADVISORY_SORTS)[number];
export type { AdvisorySeverity, AdvisoryType, Ecosystem, EpssFilter };

/** A span of time, `from` included and `until` excluded, as stored timestamps (`YYYY-MM-DDTHH:MM:SSZ`). */
export interface TimeRange {
  from?: string;
  until?: string;
}

/** One `affects` value: a package, and the version it is used at when given. */
export interface AffectedPackage {
  name: string;
  version: string | null;
}

export interface AdvisoryFilters {
  svcsaId?: string;
  /** Any of these types (the default leaves malware out). */
  types: readonly AdvisoryType[];
  cveId?: string;
  ecosystem?: Ecosystem;
  severity?: AdvisorySeverity;
  /** `CWE-<n>`, any of them. */
  cwes?: string[];
  isWithdrawn?: boolean;
  affects?: AffectedPackage[];
  published?: TimeRange;
  updated?: TimeRange;
  /** Published or updated in the span. */
  modified?: TimeRange;
  epssPercentage?: EpssFilter;
  epssPercentile?: EpssFilter;
}

/** A page of the global list as both doors ask for it: validated, in domain terms (paged as alert lists are). */
export interface AdvisoryListRequest extends Omit<AlertListRequest, 'filters' | 'sort'> {
  filters: AdvisoryFilters;
  sort: AdvisorySort;
}

/** An advisory of the global list: spec §2.9 plus the global fields (one record for alerts and the list). */
export type GlobalAdvisory = AdvisoryRecord;
export type GlobalVulnerability = AdvisoryVulnerability;
