import { z } from 'zod';
import { cursorQuery } from '../../http/pagination';
import type { InputContext } from '../../http/validate';
import { inputErrorMap } from '../../shared/input-messages';
import { ECOSYSTEMS } from './ecosystems';
import { epssFilter, epssPercentage } from './epss-filter';
import { parseVersion } from './versions';
import {
  ADVISORY_SEVERITIES, ADVISORY_SORTS, ADVISORY_TYPES, DEFAULT_ADVISORY_TYPES, MAX_AFFECTS,
  type AdvisoryFilters, type AdvisoryListRequest, type AffectedPackage, type Ecosystem,
} from './advisories.types';
import { timeFilter, timeFilterText } from './time-filter';

// Request schemas of the global advisory list (interfaces.md "Advisory database"). The rules are
// written once on the domain's filters (advisoryListChecks); REST's query strings and GraphQL's
// arguments are turned into those and checked by it, so both doors give the same 422s.

export const ADVISORY_INPUT: InputContext = { resource: 'Advisory', invalidStatus: 422 };
/** List filters: errors name the query parameter. */
export const ADVISORY_QUERY_INPUT: InputContext = { ...ADVISORY_INPUT, topLevelFields: true };

/** A request line of 16 KiB fits: 1,000 `package@version` values (interfaces.md). */
export const MAX_ADVISORY_QUERY_BYTES = 16 * 1024;

const SVCSA_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const SVCSA_ID_MESSAGE = 'must be an advisory identifier such as GHSA-3fvg-4v2m-98jf';
const CVE_ID = /^CVE-\d{4}-\d{4,}$/i;
const CWE = /^(?:CWE-)?(\d{1,6})$/i;

/** `package` or `package@version`; a scoped npm name's leading `@` is part of the name. */
export function affectedPackageOf(text: string): AffectedPackage {
  const at = text.lastIndexOf('@');
  return at > 0 ? { name: text.slice(0, at).trim(), version: text.slice(at + 1).trim() } : { name: text.trim(), version: null };
}

const affectedPackage = z.object({ name: z.string().min(1, 'must name a package').max(255), version: z.string().min(1, 'must give a version after @').max(255).nullable() });

/** Every version must parse in the ecosystem asked for, or in one of them when none is. */
function checkAffectedVersions(filters: { ecosystem?: Ecosystem | undefined; affects?: AffectedPackage[] | undefined }, ctx: z.RefinementCtx): void {
  const ecosystems = filters.ecosystem ? [filters.ecosystem] : ECOSYSTEMS;
  for (const { name, version } of filters.affects ?? []) {
    if (version === null || ecosystems.some((ecosystem) => parseVersion(ecosystem, version) !== undefined)) continue;
    const where = filters.ecosystem ? `a version of ${filters.ecosystem}` : 'a version of any ecosystem';
    ctx.addIssue({ code: 'custom', path: ['affects'], message: `has "${name}@${version}", whose version is not ${where}` });
    return;
  }
}

/** The filters and cursors on the domain level, each rule written once (GraphQL passes its arguments here). */
export const advisoryListChecks = z
  .object({
    svcsaId: z.string().regex(SVCSA_ID, SVCSA_ID_MESSAGE).optional(),
    types: z.array(z.enum(ADVISORY_TYPES)).min(1).optional(),
    cveId: z.string().regex(CVE_ID, 'must be a CVE identifier such as CVE-2024-12345').optional(),
    ecosystem: z.enum(ECOSYSTEMS).optional(),
    severity: z.enum(ADVISORY_SEVERITIES).optional(),
    cwes: z.array(z.string().regex(CWE, 'must list CWE identifiers such as 79 or CWE-79')).min(1).max(100, 'must list at most 100 CWEs').optional(),
    isWithdrawn: z.boolean().optional(),
    affects: z.array(affectedPackage).min(1).max(MAX_AFFECTS, `must list at most ${MAX_AFFECTS} packages`).optional(),
    published: timeFilter.optional(),
    updated: timeFilter.optional(),
    modified: timeFilter.optional(),
    epssPercentage: epssFilter.optional(),
    epssPercentile: epssFilter.optional(),
  })
  .superRefine(checkAffectedVersions);

type CheckedFilters = z.output<typeof advisoryListChecks>;

/** Checked filters in the domain's terms: CWEs as `CWE-<n>`, the default types filled in. */
export function toAdvisoryFilters(checked: CheckedFilters): AdvisoryFilters {
  const filters: AdvisoryFilters = { types: checked.types ?? DEFAULT_ADVISORY_TYPES };
  if (checked.svcsaId !== undefined) filters.svcsaId = checked.svcsaId;
  if (checked.cveId !== undefined) filters.cveId = checked.cveId.toUpperCase();
  if (checked.ecosystem !== undefined) filters.ecosystem = checked.ecosystem;
  if (checked.severity !== undefined) filters.severity = checked.severity;
  if (checked.cwes !== undefined) filters.cwes = checked.cwes.map((cwe) => `CWE-${CWE.exec(cwe)![1]}`);
  if (checked.isWithdrawn !== undefined) filters.isWithdrawn = checked.isWithdrawn;
  if (checked.affects !== undefined) filters.affects = checked.affects;
  for (const key of ['published', 'updated', 'modified', 'epssPercentage', 'epssPercentile'] as const) {
    if (checked[key] !== undefined) (filters as unknown as Record<string, unknown>)[key] = checked[key];
  }
  return filters;
}

const commaSeparated = (text: string) => text.split(',').map((v) => v.trim()).filter((v) => v !== '');

/** The REST query of `GET /advisories`: the parameters /openapi.json lists. */
export const advisoryListQuery = cursorQuery.extend({
  svcsa_id: z.string().optional(),
  type: z.string().optional().describe(`${ADVISORY_TYPES.join(', ')} (default: all but malware)`),
  cve_id: z.string().optional(),
  ecosystem: z.string().optional().describe(ECOSYSTEMS.join(', ')),
  severity: z.string().optional().describe(ADVISORY_SEVERITIES.join(', ')),
  cwes: z.string().optional().describe('Comma-separated CWE identifiers (79 or CWE-79); any of them'),
  is_withdrawn: z.enum(['true', 'false']).optional(),
  affects: z.string().optional().describe(`Comma-separated \`package\` or \`package@version\`, at most ${MAX_AFFECTS}`),
  published: z.string().optional().describe(timeFilterText),
  updated: z.string().optional().describe(timeFilterText),
  modified: z.string().optional().describe(`Published or updated: ${timeFilterText}`),
  epss_percentage: z.string().optional().describe('n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0'),
  epss_percentile: z.string().optional().describe('n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0'),
  sort: z.enum(ADVISORY_SORTS).default('published'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});

/**
 * The query parameters that filter and order (what a cursor carries when the query is too long
 * to repeat): every parameter of the list query but the cursor's own, read off the schema.
 */
export const ADVISORY_FILTER_PARAMETERS: readonly string[] = Object.keys(advisoryListQuery.shape).filter((key) => !(key in cursorQuery.shape));

type ParsedQuery = z.output<typeof advisoryListQuery>;

/** REST's strings as the domain checks' input (names as the domain writes them). */
function checksInput(q: ParsedQuery, ctx: z.RefinementCtx): Record<string, unknown> | undefined {
  const input: Record<string, unknown> = {
    svcsaId: q.svcsa_id, cveId: q.cve_id, ecosystem: q.ecosystem, severity: q.severity,
    types: q.type === undefined ? undefined : [q.type],
    cwes: q.cwes === undefined ? undefined : commaSeparated(q.cwes),
    isWithdrawn: q.is_withdrawn === undefined ? undefined : q.is_withdrawn === 'true',
    affects: q.affects === undefined ? undefined : commaSeparated(q.affects).map(affectedPackageOf),
    published: q.published, updated: q.updated, modified: q.modified,
  };
  for (const [param, key] of [['epss_percentage', 'epssPercentage'], ['epss_percentile', 'epssPercentile']] as const) {
    if (q[param] === undefined) continue;
    const parsed = epssPercentage.safeParse(q[param]);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', path: [param], message: 'must be n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0' });
      return undefined;
    }
    input[key] = parsed.data;
  }
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

/** Domain field → REST parameter, for messages that name what the caller wrote. */
const REST_NAMES: Record<string, string> = {
  svcsaId: 'svcsa_id', types: 'type', cveId: 'cve_id', isWithdrawn: 'is_withdrawn', epssPercentage: 'epss_percentage', epssPercentile: 'epss_percentile',
};

/** `GET /advisories`'s query as the domain's list request. */
export const advisoryListRequest = advisoryListQuery.transform((q, ctx): AdvisoryListRequest => {
  const input = checksInput(q, ctx);
  if (input === undefined) return z.NEVER;
  // Worded as every other input's (input-messages.ts): `must be one of …`, as the alert lists say it.
  const checked = advisoryListChecks.safeParse(input, { error: inputErrorMap });
  if (!checked.success) {
    const named = new Set<string>();
    for (const issue of checked.error.issues) {
      const [field, ...rest] = issue.path;
      const parameter = REST_NAMES[String(field)] ?? String(field);
      // One problem per parameter: the first says what to fix.
      if (named.has(parameter)) continue;
      named.add(parameter);
      // The value the issue is about (a list's item, not the list), shown after the message.
      const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key], input);
      ctx.addIssue({ code: 'custom', path: [parameter, ...rest.map(String)], message: issue.message, input: value });
    }
    return z.NEVER;
  }
  return { filters: toAdvisoryFilters(checked.data), sort: q.sort, direction: q.direction, perPage: q.per_page, after: q.after, before: q.before };
});

export const advisoryPath = z.object({ svcsa_id: z.string().min(1).max(64).regex(SVCSA_ID, SVCSA_ID_MESSAGE) });
export const advisoryListPath = z.object({});
