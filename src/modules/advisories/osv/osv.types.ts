import type { Ecosystem } from '../ecosystems';

/** The spec's ecosystem names (npm, pip, maven, …), not OSV's (PyPI, Maven, …). */
export type { Ecosystem };

/** One OSV range event, verbatim: exactly one of these keys is set. */
export type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string } | { limit: string };

/** One OSV range (`SEMVER`, `ECOSYSTEM` or `GIT`), kept verbatim for matching. */
export interface OsvRange {
  type: 'SEMVER' | 'ECOSYSTEM' | 'GIT';
  repo?: string;
  events: OsvEvent[];
}

/** `{vector_string, score}` as spec §2.9 shows it; `{null, 0}` when the advisory has none. */
export interface CvssScore {
  vector_string: string | null;
  score: number;
}

/** Severity of an advisory: the four of spec §2.9, or `unknown` when neither the source nor a CVSS vector says. */
export type AdvisorySeverity = 'low' | 'medium' | 'high' | 'critical' | 'unknown';

export type AdvisoryType = 'reviewed' | 'unreviewed' | 'malware';

export interface ImportedVulnerability {
  package: { ecosystem: Ecosystem; name: string };
  /** Written in the original's syntax by the version engine (see RenderRange). */
  vulnerableVersionRange: string;
  firstPatchedVersion: string | null;
  vulnerableFunctions: string[];
  /** The ranges as OSV gives them (GIT ones included: stored, never matched). */
  ranges: OsvRange[];
  /** OSV's explicit `versions` list. */
  versions: string[];
  /**
   * GitHub's export: the upper bound of an interval without a fix ("< 1.2.3", "<= 1.2.3"),
   * `database_specific.last_known_affected_version_range`; only set when the source gives it.
   */
  lastKnownAffectedVersionRange?: string;
}

/**
 * An OSV advisory mapped to orgsec's advisory (spec §2.9 plus the global list's fields, interfaces.md
 * "Advisory database"). Top-level keys are camelCase like AdvisoryRecord; the nested JSON values keep
 * the spec's snake_case shape, as the advisories table stores them.
 * `url`/`html_url` are not here: they derive from the server's base URL and `svcsaId` when serialized.
 */
export interface ImportedAdvisory {
  svcsaId: string;
  cveId: string | null;
  type: AdvisoryType;
  classification: 'general' | 'malware';
  summary: string;
  description: string;
  severity: AdvisorySeverity;
  cvss: CvssScore;
  cvssSeverities: { cvss_v3: CvssScore; cvss_v4: CvssScore };
  cwes: Array<{ cwe_id: string; name: string }>;
  identifiers: Array<{ type: 'SVCSA' | 'CVE'; value: string }>;
  references: Array<{ url: string }>;
  publishedAt: string;
  updatedAt: string;
  withdrawnAt: string | null;
  reviewedAt: string | null;
  nvdPublishedAt: string | null;
  sourceCodeLocation: string | null;
  credits: Array<{ name: string; type: string | null; contact: string[] }>;
  vulnerabilities: ImportedVulnerability[];
}

/** What the version engine answers for one range: its text in the original's syntax, or why it cannot. */
export type RangeRendering = { ok: true; range: string } | { ok: false; reason: string };

/**
 * The hook the mapper calls for each SEMVER/ECOSYSTEM range of a known ecosystem. The version engine
 * (src/modules/advisories/versions/) provides it; the mapper never interprets versions itself.
 */
export type RenderRange = (ecosystem: Ecosystem, events: readonly OsvEvent[], type: 'SEMVER' | 'ECOSYSTEM') => RangeRendering;

/** Something the mapper left out of an otherwise mapped advisory, for the import summary. */
export type MappingNote =
  | { kind: 'unknown-ecosystem'; ecosystem: string; package: string }
  | { kind: 'range-skipped'; ecosystem: Ecosystem; package: string; reason: string }
  | { kind: 'cvss-malformed'; type: 'CVSS_V3' | 'CVSS_V4'; vector: string; reason: string };

export type OsvMapping =
  | { kind: 'mapped'; advisory: ImportedAdvisory; notes: MappingNote[] }
  /** Valid OSV, but nothing orgsec can use (every affected package in an unknown ecosystem). */
  | { kind: 'skipped'; id: string; reason: string; notes: MappingNote[] }
  /** Not a valid OSV advisory: the reason names the field. */
  | { kind: 'malformed'; id: string | null; reason: string };
