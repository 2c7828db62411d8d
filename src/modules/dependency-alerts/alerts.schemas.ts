import { z } from 'zod';
import { STORABLE_TEXT, STORABLE_TEXT_MESSAGE } from '../../shared/storable-text';
import { integerString, pathName } from '../../http/params';
import { MAX_CURSOR_LENGTH, cursorQuery } from '../../http/pagination';
import type { InputContext } from '../../http/validate';
import {
  ARTIFACT_REGISTRIES, CLASSIFICATIONS, DISMISSED_REASONS, RELATIONSHIPS, RUNTIME_RISKS, SCOPES, SEVERITIES, SORTS,
  type AlertFilters, type AlertListRequest, type AlertPatch,
} from './alerts.types';
import { ECOSYSTEMS } from '../advisories/ecosystems';
import { epssFilter, epssPercentage } from '../advisories/epss-filter';

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

const enumItem = (values: readonly [string, ...string[]]) =>
  z.string().refine((v) => values.includes(v), `must be one of ${values.join(', ')}`);
const nonEmpty = (max: number) => z.string().min(1, 'must not be empty').max(max);

/** Values of one filter, comma-joined as REST writes them, fit MAX_LIST_PARAMETER_LENGTH. */
const fitsOneParameter = (values: string[]) => values.join(',').length <= MAX_LIST_PARAMETER_LENGTH;
const PARAMETER_LENGTH_MESSAGE = `must be at most ${MAX_LIST_PARAMETER_LENGTH} characters`;

/** A filter's values, however the caller wrote them (comma-separated in REST, a list in GraphQL). */
const valueList = <T extends z.ZodType<string, string>>(item: T) =>
  z.array(item).min(1).max(MAX_LIST_ITEMS, `must list at most ${MAX_LIST_ITEMS} values`).refine(fitsOneParameter, PARAMETER_LENGTH_MESSAGE);

/**
 * The filters of spec §4.4 on the domain level, each rule written once: REST parses its
 * query strings into these, GraphQL passes its arguments to them. Messages name the fields
 * as GraphQL writes them (`epssPercentage`), which is also how REST's parameters read in camelCase.
 */
const FILTER_VALUES = {
  classification: valueList(enumItem(CLASSIFICATIONS)),
  state: valueList(enumItem(['open', 'dismissed', 'fixed', 'auto_dismissed'])),
  severity: valueList(enumItem(SEVERITIES)),
  ecosystem: valueList(enumItem(ECOSYSTEMS)),
  package: valueList(nonEmpty(255)),
  manifest: valueList(nonEmpty(1024)),
  relationship: valueList(enumItem(RELATIONSHIPS)),
  artifactRegistryUrl: valueList(nonEmpty(2048)),
  artifactRegistry: valueList(enumItem(ARTIFACT_REGISTRIES)),
  runtimeRisk: valueList(enumItem(RUNTIME_RISKS)),
};

const assigneeFilter = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }),
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('logins'), logins: z.array(login).min(1).max(MAX_LIST_ITEMS, `must list at most ${MAX_LIST_ITEMS} logins`).refine(fitsOneParameter, PARAMETER_LENGTH_MESSAGE) }),
]);
const cursor = z.string().min(1).max(MAX_CURSOR_LENGTH);

/** An alert list's filters and cursors as GraphQL arguments give them (src/modules/dependency-alerts/graphql/alert.args.ts). */
export const alertListChecks = z.object({
  ...Object.fromEntries(Object.entries(FILTER_VALUES).map(([key, schema]) => [key, schema.optional()])) as { [K in keyof typeof FILTER_VALUES]: z.ZodOptional<(typeof FILTER_VALUES)[K]> },
  epssPercentage: epssFilter.optional(),
  hasPatch: z.boolean().optional(),
  hasDeployment: z.boolean().optional(),
  assignee: assigneeFilter.optional(),
  scope: z.enum(SCOPES).optional(),
  after: cursor.optional(),
  before: cursor.optional(),
});

/** A comma-separated list of values, each checked by `item`. */
function commaList<T extends z.ZodType<string[], string[]>>(values: T) {
  return z
    .string()
    .max(MAX_LIST_PARAMETER_LENGTH, PARAMETER_LENGTH_MESSAGE)
    .transform((value) => value.split(',').map((v) => v.trim()))
    .pipe(values);
}

const assignee = z.string().max(MAX_LIST_PARAMETER_LENGTH, PARAMETER_LENGTH_MESSAGE).transform((text, ctx): NonNullable<AlertFilters['assignee']> => {
  if (text === '*') return { kind: 'any' };
  if (text === 'none') return { kind: 'none' };
  const filter = { kind: 'logins' as const, logins: text.split(',').map((v) => v.trim()) };
  if (!assigneeFilter.safeParse(filter).success) {
    ctx.addIssue({ code: 'custom', message: `must be "*", "none", or up to ${MAX_LIST_ITEMS} comma-separated logins` });
    return z.NEVER;
  }
  return filter;
});

/** `state` as the lists read it: a comma-separated list of states (exports filter by it too). */
export const stateListParameter = commaList(FILTER_VALUES.state);

/** `has` is repeatable (and may be comma-separated); every value must hold. */
const hasValues = (allowed: readonly [string, ...string[]]) =>
  z
    .union([z.string(), z.array(z.string()).max(MAX_LIST_ITEMS)])
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',').map((s) => s.trim())))
    .pipe(z.array(enumItem(allowed)).min(1));

const common = {
  classification: commaList(FILTER_VALUES.classification).optional(),
  state: commaList(FILTER_VALUES.state).optional(),
  severity: commaList(FILTER_VALUES.severity).optional(),
  ecosystem: commaList(FILTER_VALUES.ecosystem).optional(),
  package: commaList(FILTER_VALUES.package).optional(),
  relationship: commaList(FILTER_VALUES.relationship).optional(),
  epss_percentage: epssPercentage.optional(),
  assignee: assignee.optional(),
  scope: z.enum(SCOPES).optional(),
  sort: z.enum(SORTS).default('created'),
  direction: z.enum(['asc', 'desc']).default('desc'),
};

const commonListQuery = cursorQuery.extend(common);

type ParsedListQuery = z.output<typeof commonListQuery> & {
  has?: string[] | undefined;
  manifest?: string[] | undefined;
  artifact_registry_url?: string[] | undefined;
  artifact_registry?: string[] | undefined;
  runtime_risk?: string[] | undefined;
};

/** A parsed REST list query as the domain's list query. */
function toListQuery(q: ParsedListQuery): AlertListRequest {
  const filters: AlertFilters = {};
  if (q.classification) filters.classification = q.classification;
  if (q.state) filters.state = q.state;
  if (q.severity) filters.severity = q.severity;
  if (q.ecosystem) filters.ecosystem = q.ecosystem;
  if (q.package) filters.package = q.package;
  if (q.manifest) filters.manifest = q.manifest;
  if (q.relationship) filters.relationship = q.relationship;
  if (q.epss_percentage) filters.epssPercentage = q.epss_percentage;
  if (q.has?.includes('patch')) filters.hasPatch = true;
  if (q.has?.includes('deployment')) filters.hasDeployment = true;
  if (q.assignee) filters.assignee = q.assignee;
  if (q.scope) filters.scope = q.scope;
  if (q.artifact_registry_url) filters.artifactRegistryUrl = q.artifact_registry_url;
  if (q.artifact_registry) filters.artifactRegistry = q.artifact_registry;
  if (q.runtime_risk) filters.runtimeRisk = q.runtime_risk;
  return { filters, sort: q.sort, direction: q.direction, perPage: q.per_page, after: q.after, before: q.before };
}

export const enterpriseListQuery = commonListQuery.extend({ has: hasValues(['patch']).optional() });

export const orgListQuery = commonListQuery.extend({
  has: hasValues(['patch', 'deployment']).optional(),
  artifact_registry_url: commaList(FILTER_VALUES.artifactRegistryUrl).optional(),
  artifact_registry: commaList(FILTER_VALUES.artifactRegistry).optional(),
  runtime_risk: commaList(FILTER_VALUES.runtimeRisk).optional(),
});

export const repoListQuery = commonListQuery.extend({ has: hasValues(['patch']).optional(), manifest: commaList(FILTER_VALUES.manifest).optional() });

// The query strings routes parse, as the domain's list request (the objects above list the parameters).
export const enterpriseListRequest = enterpriseListQuery.transform(toListQuery);
export const orgListRequest = orgListQuery.transform(toListQuery);
export const repoListRequest = repoListQuery.transform(toListQuery);

export const enterprisePath = z.object({ enterprise: pathName });
export const orgPath = z.object({ org: pathName });
export const repoPath = z.object({ owner: pathName, repo: pathName });
export const alertPath = repoPath.extend({ alert_number: integerString({ min: 1 }) });

// #71: how many of an alert's dependency paths to answer, REST's `per_page` and GraphQL's `first`.
export const MAX_DEPENDENCY_PATHS = 100;
export const DEFAULT_DEPENDENCY_PATHS = 10;
const PATH_COUNT_MESSAGE = `must be an integer from 1 to ${MAX_DEPENDENCY_PATHS}`;
export const pathsQuery = z.object({ per_page: integerString({ min: 1, max: MAX_DEPENDENCY_PATHS }).default(DEFAULT_DEPENDENCY_PATHS) });
export const pathsArgs = z.object({ first: z.int(PATH_COUNT_MESSAGE).min(1, PATH_COUNT_MESSAGE).max(MAX_DEPENDENCY_PATHS, PATH_COUNT_MESSAGE) });

// #27: spec §4.4's body, with reference.md's rules on what may go together. The rules are
// written once over the domain's AlertPatch; REST's snake_case body and GraphQL's input map into it.
const PATCH_FIELDS = {
  state: z.string().pipe(z.enum(['dismissed', 'open'], { message: 'must be dismissed or open (other states cannot be requested)' })).optional(),
  dismissedReason: z.enum(DISMISSED_REASONS).optional(),
  dismissedComment: z
    .string()
    .max(MAX_DISMISSED_COMMENT, `must be at most ${MAX_DISMISSED_COMMENT} characters`)
    .regex(STORABLE_TEXT, STORABLE_TEXT_MESSAGE)
    .nullable()
    .optional(),
  assignees: z.array(login).max(MAX_ASSIGNEES, `must name at most ${MAX_ASSIGNEES} users`).optional(),
};

type PatchFieldNames = Record<keyof AlertPatch, string>;
/** What a schema hands over before its keys are pruned: absent keys may be present as undefined. */
type Given<T> = { [K in keyof T]?: T[K] | undefined };

function checkCombination(patch: Given<AlertPatch>, ctx: z.RefinementCtx, name: PatchFieldNames): void {
  if (patch.state === undefined && patch.assignees === undefined) {
    ctx.addIssue({ code: 'custom', path: [name.state], message: 'is required when "assignees" is not given; the body must change one of them' });
  }
  if (patch.state === 'dismissed' && patch.dismissedReason === undefined) {
    ctx.addIssue({ code: 'custom', path: [name.dismissedReason], message: 'is required when "state" is "dismissed"' });
  }
  if (patch.state !== 'dismissed') {
    for (const key of ['dismissedReason', 'dismissedComment'] as const) {
      if (patch[key] !== undefined) ctx.addIssue({ code: 'custom', path: [name[key]], message: 'is only accepted when "state" is "dismissed"' });
    }
  }
}

/** The change GraphQL's updateDependencyAlert asks for. */
export const alertPatch = z
  .strictObject(PATCH_FIELDS)
  .superRefine((patch, ctx) => checkCombination(patch, ctx, { state: 'state', dismissedReason: 'dismissedReason', dismissedComment: 'dismissedComment', assignees: 'assignees' }));

const REST_PATCH_NAMES = { state: 'state', dismissedReason: 'dismissed_reason', dismissedComment: 'dismissed_comment', assignees: 'assignees' } as const;

/** The body's keys in the domain's words (only those given). */
function patchOf(body: Given<{ state: AlertPatch['state']; dismissed_reason: AlertPatch['dismissedReason']; dismissed_comment: AlertPatch['dismissedComment']; assignees: string[] }>): AlertPatch {
  const patch: AlertPatch = {};
  if (body.state !== undefined) patch.state = body.state;
  if (body.dismissed_reason !== undefined) patch.dismissedReason = body.dismissed_reason;
  if (body.dismissed_comment !== undefined) patch.dismissedComment = body.dismissed_comment;
  if (body.assignees !== undefined) patch.assignees = body.assignees;
  return patch;
}

/** #27's REST body, as an AlertPatch. */
export const updateBody = z
  .strictObject({
    state: PATCH_FIELDS.state,
    dismissed_reason: PATCH_FIELDS.dismissedReason,
    dismissed_comment: PATCH_FIELDS.dismissedComment,
    assignees: PATCH_FIELDS.assignees,
  })
  .superRefine((body, ctx) => checkCombination(patchOf(body), ctx, REST_PATCH_NAMES))
  .transform(patchOf);
