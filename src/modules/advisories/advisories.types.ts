import type { KeysetListRequest } from '../../database/keyset';
import type { AdvisorySeverity, AdvisoryType, Ecosystem } from './osv/osv.types';

// The global advisory list's vocabulary (interfaces.md "Advisory database"), in domain terms.

export const ADVISORY_TYPES = ['reviewed', 'unreviewed', 'malware'] as const;
/** `type` when the caller gives none: everything but malware, as the original's list. */
export const DEFAULT_ADVISORY_TYPES: readonly AdvisoryType[] = ['reviewed', 'unreviewed'];
export const ADVISORY_SEVERITIES = ['unknown', 'low', 'medium', 'high', 'critical'] as const;
export const ADVISORY_SORTS = ['published', 'updated', 'epss_percentage', 'epss_percentile'] as const;
export const MAX_AFFECTS = 1000;

export type AdvisorySort = (typeof ADVISORY_SORTS)[number];
export type { AdvisorySeverity, AdvisoryType, Ecosystem };

export type EpssFilter = { op: '=' | '>' | '<' | '>=' | '<='; value: number } | { op: 'between'; from: number; to: number };

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
export type AdvisoryListRequest = KeysetListRequest<AdvisoryFilters, AdvisorySort>;

export interface AdvisoryVulnerability {
  /** The advisory_vulnerabilities row: what a computed alert matched. */
  id: number;
  ecosystem: string;
  packageName: string;
  severity: string;
  vulnerableVersionRange: string;
  firstPatchedVersion: string | null;
  /** The global list's field; alerts do not show it. */
  vulnerableFunctions: string[];
}

export interface AdvisoryRecord {
  id: number;
  svcsaId: string;
  cveId: string | null;
  classification: string;
  summary: string;
  description: string;
  severity: string;
  cvssVectorString: string | null;
  cvssScore: number | null;
  cvssSeverities: { cvss_v3: unknown; cvss_v4: unknown };
  epssPercentage: number | null;
  epssPercentile: string | null;
  cwes: Array<{ cwe_id: string; name: string }>;
  identifiers: Array<{ type: string; value: string }>;
  references: Array<{ url: string }>;
  publishedAt: string;
  updatedAt: string;
  withdrawnAt: string | null;
  // The global list's fields; alerts do not show them.
  type: 'reviewed' | 'unreviewed' | 'malware';
  reviewedAt: string | null;
  nvdPublishedAt: string | null;
  sourceCodeLocation: string | null;
  credits: Array<{ name: string; type: string | null; contact: string[] }>;
  vulnerabilities: AdvisoryVulnerability[];
}

/** An advisory of the global list: spec §2.9 plus the global fields (one record for alerts and the list). */
export type GlobalAdvisory = AdvisoryRecord;
export type GlobalVulnerability = AdvisoryVulnerability;

/** What an evaluation of the alert engine needs of an advisory. */
export interface AdvisoryTraits {
  id: number;
  svcsaId: string;
  cveId: string | null;
  severity: string;
  classification: string;
  /** reviewed | unreviewed | malware: only reviewed and malware advisories raise alerts. */
  type: string;
  withdrawn: boolean;
  epssPercentage: number | null;
  cweIds: string[];
}

/** A vulnerability row's identity and patch, for has_patch and the alert's matching entry. */
export interface VulnerabilityTraits {
  id: number;
  advisoryId: number;
  ecosystem: string;
  packageName: string;
  /** The name normalized per ecosystem (what repository_dependencies.normalized_name holds). */
  packageKey: string;
  hasPatch: boolean;
}
