import type { Ecosystem, ImportedVulnerability, OsvRange, RangeRendering, RenderRange } from './osv';
import {
  compileAffected,
  intervalsOf,
  matchVersion,
  normalizePackageName,
  parseVulnerableVersionRange,
  renderAffected,
  renderInterval,
  type OsvAffectedVersions,
} from './versions';

// How an advisory's vulnerabilities are stored (the advisory_vulnerabilities rows): one per
// vulnerable interval, as the original's global list shows them (`>= 7.0.0, < 7.4.5` and
// `< 6.5.8` are two entries), each with the OSV events it is matched by. Advisories of world
// files and imported ones are stored alike, so one evaluation matches both.

/** One stored vulnerability: the text the API shows, and what the version engine matches. */
export interface StoredVulnerability {
  ecosystem: Ecosystem;
  packageName: string;
  /** normalizePackageName: what `affects` look-ups compare. */
  packageKey: string;
  vulnerableVersionRange: string;
  firstPatchedVersion: string | null;
  vulnerableFunctions: string[];
  /** This interval's events, as one range of its source's type; GIT ranges ride on the entry's first row. */
  ranges: OsvRange[];
  /** Explicit versions this row covers (OSV `versions` not inside any interval). */
  versions: string[];
}

/** The engine as the OSV mapping's RenderRange: a range's intervals in the original's syntax, or why it cannot be read. */
export const renderRangeText: RenderRange = (ecosystem, events, type): RangeRendering => {
  const range: OsvRange = { type, events: [...events] };
  const intervals = intervalsOf(ecosystem, range);
  if (!intervals) return { ok: false, reason: compileAffected(ecosystem, { ranges: [range] }).skipped[0]?.reason ?? 'the range cannot be read' };
  return { ok: true, range: intervals.map((interval) => renderInterval(interval)).join(' || ') };
};


/** One imported affected entry as stored rows: its intervals, then listed versions no interval covers. */
export function storedVulnerabilitiesOf(vulnerability: ImportedVulnerability): StoredVulnerability[] {
  const { ecosystem, name } = vulnerability.package;
  const versionRanges = vulnerability.ranges.filter((range) => range.type !== 'GIT');
  const gitRanges = vulnerability.ranges.filter((range) => range.type === 'GIT');
  const base = { ecosystem, packageName: name, packageKey: normalizePackageName(ecosystem, name), vulnerableFunctions: vulnerability.vulnerableFunctions };
  const rows: StoredVulnerability[] = versionRanges.flatMap((range) =>
    renderAffected(ecosystem, { ranges: [range] }, vulnerability.lastKnownAffectedVersionRange).map((rendered) => ({
      ...base,
      vulnerableVersionRange: rendered.vulnerableVersionRange,
      firstPatchedVersion: rendered.firstPatchedVersion,
      ranges: [{ type: range.type, events: [...rendered.events] as OsvRange['events'] }],
      versions: [],
    })),
  );
  const only = rows[0];
  const onlyIntroduced = only?.ranges[0]?.events[0];
  // GitHub's export of "= A": one interval introduced at A, and `versions: [A]`.
  if (rows.length === 1 && only && vulnerability.versions.length === 1 && onlyIntroduced && 'introduced' in onlyIntroduced && onlyIntroduced.introduced === vulnerability.versions[0]) {
    only.vulnerableVersionRange = `= ${onlyIntroduced.introduced}`;
    only.versions = [...vulnerability.versions];
  } else {
    const compiled = compileAffected(ecosystem, { ranges: versionRanges });
    for (const version of vulnerability.versions) {
      const match = matchVersion(compiled, version);
      if (match.ok && match.isAffected) continue;
      rows.push({ ...base, vulnerableVersionRange: `= ${version}`, firstPatchedVersion: null, ranges: [], versions: [version] });
    }
  }
  if (gitRanges.length > 0) {
    // Stored, never matched (interfaces.md); an entry with nothing else keeps its text.
    if (rows.length === 0) rows.push({ ...base, vulnerableVersionRange: vulnerability.vulnerableVersionRange, firstPatchedVersion: null, ranges: [], versions: [] });
    rows[0]!.ranges.push(...gitRanges);
  }
  return rows;
}

export const VULNERABILITY_COLUMNS = [
  'advisory_id', 'ecosystem', 'package_name', 'package_key', 'severity', 'vulnerable_version_range', 'first_patched_version',
  'vulnerable_functions', 'ranges', 'versions',
];

/** The advisory_vulnerabilities columns of one stored vulnerability (world files' rows too): VULNERABILITY_COLUMNS. */
export function vulnerabilityColumns(advisoryId: number, severity: string, v: StoredVulnerability) {
  return {
    advisory_id: advisoryId,
    ecosystem: v.ecosystem,
    package_name: v.packageName,
    package_key: v.packageKey,
    severity,
    vulnerable_version_range: v.vulnerableVersionRange,
    first_patched_version: v.firstPatchedVersion,
    vulnerable_functions: JSON.stringify(v.vulnerableFunctions),
    ranges: JSON.stringify(v.ranges),
    versions: JSON.stringify(v.versions),
  };
}

export type WorldRangeReading = { ok: true; ranges: OsvRange[] } | { ok: false; reason: string };

/** A world file's `vulnerable_version_range` as the events rendering would have produced. */
function rangesOfWorldRange(ecosystem: Ecosystem, text: string): WorldRangeReading {
  const parsed = parseVulnerableVersionRange(ecosystem, text);
  return parsed.ok ? { ok: true, ranges: [{ type: 'ECOSYSTEM', events: [...parsed.events] as OsvRange['events'] }] } : parsed;
}

/** A world file's vulnerability, stored like an imported one; its range text must parse. */
export function storedWorldVulnerability(
  ecosystem: Ecosystem,
  name: string,
  range: string,
  firstPatchedVersion: string | null,
): { ok: true; vulnerability: StoredVulnerability } | { ok: false; reason: string } {
  const reading = rangesOfWorldRange(ecosystem, range);
  if (!reading.ok) return reading;
  return {
    ok: true,
    vulnerability: {
      ecosystem, packageName: name, packageKey: normalizePackageName(ecosystem, name), vulnerableVersionRange: range,
      firstPatchedVersion, vulnerableFunctions: [], ranges: reading.ranges, versions: [],
    },
  };
}

/**
 * What a stored row is matched by. Rows written before the events were kept (ranges null) have
 * their range text parsed; one that does not parse matches nothing.
 */
export function affectedVersionsOf(ecosystem: Ecosystem, row: { ranges: readonly OsvRange[] | null; versions: readonly string[]; vulnerableVersionRange: string }): OsvAffectedVersions {
  if (row.ranges !== null) return { ranges: row.ranges, versions: row.versions };
  const reading = rangesOfWorldRange(ecosystem, row.vulnerableVersionRange);
  return { ranges: reading.ok ? reading.ranges : [], versions: row.versions };
}
