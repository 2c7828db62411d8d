import type { z } from 'zod';
import { alertSchema, worldSchema, type World, type WorldAlertDeclaration } from './world.schema';
import type { WorldSource } from './world.source';
import { INPUT_PARSE_OPTIONS, problemOf, shownString } from '../../shared/input-messages';
import { WorldError } from './world.support';

// A world is validated in two parts: its sections whole, its alerts one by one (so the parsed
// copy of a million alerts is never held at once). The message is the one a whole-world
// parse gives: every problem named by its path, in schema order, at most 10 lines.

type Issue = z.core.$ZodIssue;

const MAX_LINES = 10;
const SECTION_ORDER = Object.keys(worldSchema.shape);
const ALERTS_AT = SECTION_ORDER.indexOf('alerts');

function issueLine(issue: Issue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  const text = issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.map(shownString).join(', ')}` : problemOf(issue);
  return `${path || '(world)'}: ${text}`;
}

/** Where a section's issue goes in a whole-world parse: by the section's key, top-level issues last. */
function sectionRank(issue: Issue): number {
  const at = issue.path.length === 0 ? -1 : SECTION_ORDER.indexOf(String(issue.path[0]));
  return at === -1 ? SECTION_ORDER.length : at;
}

/** A world that breaks the schema; it outranks any other problem, as the whole-world parse found it first. */
export class WorldSchemaError extends WorldError {}

function schemaError(sectionIssues: Issue[], alertIssues: Issue[]): WorldError {
  const before = sectionIssues.filter((i) => sectionRank(i) <= ALERTS_AT);
  const after = sectionIssues.filter((i) => sectionRank(i) > ALERTS_AT);
  return new WorldSchemaError([...before, ...alertIssues, ...after].slice(0, MAX_LINES).map(issueLine).join('\n'));
}

export type AlertParse = { alert: WorldAlertDeclaration; issues?: undefined } | { alert?: undefined; issues: Issue[] };

/** Parses one alert; its issues carry the path a whole-world parse gives them. */
export function parseAlert(value: unknown, index: number): AlertParse {
  const result = alertSchema.safeParse(value, INPUT_PARSE_OPTIONS);
  if (result.success) return { alert: result.data };
  return { issues: result.error.issues.map((issue) => ({ ...issue, path: ['alerts', index, ...issue.path] }) as Issue) };
}

/** The schema issues of the alerts, in order, stopping once `limit` are found. */
async function alertIssues(source: WorldSource, limit: number): Promise<Issue[]> {
  const issues: Issue[] = [];
  if (limit <= 0) return issues;
  for await (const batch of source.alertBatches()) {
    for (const [offset, value] of batch.values.entries()) {
      const parsed = parseAlert(value, batch.start + offset);
      if (parsed.issues) issues.push(...parsed.issues);
      if (issues.length >= limit) return issues;
    }
  }
  return issues;
}

/**
 * Parses every section but the alerts. When one is wrong, the alerts are checked too, so the
 * message is the whole world's; the alerts are otherwise parsed batch by batch as they load.
 */
export async function parseSections(source: WorldSource): Promise<World> {
  const result = worldSchema.safeParse(await source.sections(), INPUT_PARSE_OPTIONS);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const before = issues.filter((i) => sectionRank(i) <= ALERTS_AT).length;
  throw schemaError(issues, await alertIssues(source, MAX_LINES - before));
}

/** The error that names the alerts' schema problems, when they have any. */
export async function alertsSchemaError(source: WorldSource): Promise<WorldError | undefined> {
  const issues = await alertIssues(source, MAX_LINES);
  return issues.length > 0 ? schemaError([], issues) : undefined;
}
