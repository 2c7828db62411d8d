import { z } from 'zod';
import { STORABLE_TEXT, STORABLE_TEXT_MESSAGE } from '../../shared/storable-text';
import { integerString, pathName } from '../../http/params';
import { cursorQuery } from '../../http/pagination';
import type { InputContext } from '../../http/validate';
import {
  ARTIFACT_REGISTRIES, CLASSIFICATIONS, DISMISSED_REASONS, ECOSYSTEMS, RELATIONSHIPS, RUNTIME_RISKS, SCOPES, SEVERITIES, SORTS,
  type AlertFilters, type EpssFilter,
} from './alerts.types';

// Request schemas of #23–#27: the filters of spec §4.4, each value checked, so a value
// outside an enumeration is a 422 naming the parameter, never an empty list.

export const ALERT_INPUT: InputContext = { resource: 'DependencyAlert', invalidStatus: 422 };
/** List filters: errors name the query parameter. */
export const ALERT_QUERY_INPUT: InputContext = { ...ALERT_INPUT, topLevelFields: true };

export const MAX_LIST_ITEMS = 100;
/** Characters of one comma-separated filter value (checked before it is split). */
/** Characters of one comma-separated filter; the whole query is held to MAX_QUERY_BYTES as well. */
export const MAX_LIST_PARAMETER_LENGTH = 3072;
export const MAX_ASSIGNEES = 10;
export const MAX_DISMISSED_COMMENT = 280;

const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,98}[A-Za-z0-9])?$/, 'must be a login of letters, digits and inner hyphens');

/** A comma-separated list of values, each checked by `item`. */
function commaList<T extends z.ZodType<string, string>>(item: T) {
  return z
    .string()
    .max(MAX_LIST_PARAMETER_LENGTH, `must be at most ${MAX_LIST_PARAMETER_LENGTH} characters`)
    .transform((value) => value.split(',').map((v) => v.trim()))
    .pipe(z.array(item).min(1).max(MAX_LIST_ITEMS, `must list at most ${MAX_LIST_ITEMS} values`));
}

const enumItem = (values: readonly [string, ...string[]]) =>
  z.string().refine((v) => values.includes(v), `must be one of ${values.join(', ')}`);
const nonEmpty = (max: number) => z.string().min(1, 'must not be empty').max(max);

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const unitNumber = (text: string) => (NUMBER.test(text) ? Number(text) : Number.NaN);
const inUnitRange = (n: number) => Number.isFinite(n) && n >= 0 && n <= 1;

/** `n`, `>n`, `<n`, `>=n`, `<=n` or `n..n`, n from 0.0 to 1.0. */
const epssPercentage = z.string().transform((text, ctx): EpssFilter => {
  const range = /^([^.]*\.?[^.]*)\.\.(.+)$/.exec(text);
  if (range) {
    const from = unitNumber(range[1]!);
    const to = unitNumber(range[2]!);
    if (inUnitRange(from) && inUnitRange(to) && from <= to) return { op: 'between', from, to };
  } else {
    const match = /^(>=|<=|>|<)?(.+)$/.exec(text);
    const value = unitNumber(match?.[2] ?? '');
    if (match && inUnitRange(value)) return { op: (match[1] ?? '=') as '=' | '>' | '<' | '>=' | '<=', value };
  }
  ctx.addIssue({ code: 'custom', message: 'must be n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0' });
  return z.NEVER;
});

const assignee = z.string().max(MAX_LIST_PARAMETER_LENGTH, `must be at most ${MAX_LIST_PARAMETER_LENGTH} characters`).transform((text, ctx): NonNullable<AlertFilters['assignee']> => {
  if (text === '*') return { kind: 'any' };
  if (text === 'none') return { kind: 'none' };
  const logins = text.split(',').map((v) => v.trim());
  if (logins.length > MAX_LIST_ITEMS || logins.some((l) => !login.safeParse(l).success)) {
    ctx.addIssue({ code: 'custom', message: `must be "*", "none", or up to ${MAX_LIST_ITEMS} comma-separated logins` });
    return z.NEVER;
  }
  return { kind: 'logins', logins };
});

/** `has` is repeatable (and may be comma-separated); every value must hold. */
const hasValues = (allowed: readonly [string, ...string[]]) =>
  z
    .union([z.string(), z.array(z.string()).max(MAX_LIST_ITEMS)])
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',').map((s) => s.trim())))
    .pipe(z.array(enumItem(allowed)).min(1));

const common = {
  classification: commaList(enumItem(CLASSIFICATIONS)).optional(),
  state: commaList(enumItem(['open', 'dismissed', 'fixed', 'auto_dismissed'])).optional(),
  severity: commaList(enumItem(SEVERITIES)).optional(),
  ecosystem: commaList(enumItem(ECOSYSTEMS)).optional(),
  package: commaList(nonEmpty(255)).optional(),
  relationship: commaList(enumItem(RELATIONSHIPS)).optional(),
  epss_percentage: epssPercentage.optional(),
  assignee: assignee.optional(),
  scope: z.enum(SCOPES).optional(),
  sort: z.enum(SORTS).default('created'),
  direction: z.enum(['asc', 'desc']).default('desc'),
};

export const enterpriseListQuery = cursorQuery.extend({ ...common, has: hasValues(['patch']).optional() });

export const orgListQuery = cursorQuery.extend({
  ...common,
  has: hasValues(['patch', 'deployment']).optional(),
  artifact_registry_url: commaList(nonEmpty(2048)).optional(),
  artifact_registry: commaList(enumItem(ARTIFACT_REGISTRIES)).optional(),
  runtime_risk: commaList(enumItem(RUNTIME_RISKS)).optional(),
});

export const repoListQuery = cursorQuery.extend({ ...common, has: hasValues(['patch']).optional(), manifest: commaList(nonEmpty(1024)).optional() });

type ParsedListQuery = z.output<typeof orgListQuery> & Partial<z.output<typeof repoListQuery>>;

/** The filters of a parsed list query, in the service's vocabulary. */
export function filtersOf(q: ParsedListQuery): AlertFilters {
  const filters: AlertFilters = {};
  if (q.classification) filters.classification = q.classification;
  if (q.state) filters.state = q.state;
  if (q.severity) filters.severity = q.severity;
  if (q.ecosystem) filters.ecosystem = q.ecosystem;
  if (q.package) filters.package = q.package;
  if (q.manifest) filters.manifest = q.manifest;
  if (q.relationship) filters.relationship = q.relationship;
  if (q.epss_percentage) filters.epss = q.epss_percentage;
  if (q.has?.includes('patch')) filters.hasPatch = true;
  if (q.has?.includes('deployment')) filters.hasDeployment = true;
  if (q.assignee) filters.assignee = q.assignee;
  if (q.scope) filters.scope = q.scope;
  if (q.artifact_registry_url) filters.artifactRegistryUrl = q.artifact_registry_url;
  if (q.artifact_registry) filters.artifactRegistry = q.artifact_registry;
  if (q.runtime_risk) filters.runtimeRisk = q.runtime_risk;
  return filters;
}

export const enterprisePath = z.object({ enterprise: pathName });
export const orgPath = z.object({ org: pathName });
export const repoPath = z.object({ owner: pathName, repo: pathName });
export const alertPath = repoPath.extend({ alert_number: integerString({ min: 1 }) });

/** #27: spec §4.4's body, with reference.md's rules on what may go together. */
export const updateBody = z
  .strictObject({
    state: z.string().pipe(z.enum(['dismissed', 'open'], { message: 'must be dismissed or open (other states cannot be requested)' })).optional(),
    dismissed_reason: z.enum(DISMISSED_REASONS).optional(),
    dismissed_comment: z
      .string()
      .max(MAX_DISMISSED_COMMENT, `must be at most ${MAX_DISMISSED_COMMENT} characters`)
      .regex(STORABLE_TEXT, STORABLE_TEXT_MESSAGE)
      .nullable()
      .optional(),
    assignees: z.array(login).max(MAX_ASSIGNEES, `must name at most ${MAX_ASSIGNEES} users`).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.state === undefined && body.assignees === undefined) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: 'is required when "assignees" is not given; the body must change one of them' });
    }
    if (body.state === 'dismissed' && body.dismissed_reason === undefined) {
      ctx.addIssue({ code: 'custom', path: ['dismissed_reason'], message: 'is required when "state" is "dismissed"' });
    }
    if (body.state !== 'dismissed') {
      for (const key of ['dismissed_reason', 'dismissed_comment'] as const) {
        if (body[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'is only accepted when "state" is "dismissed"' });
      }
    }
  });
export type UpdateBody = z.output<typeof updateBody>;
