import { z } from 'zod';
import { fieldSentence, INPUT_PARSE_OPTIONS } from '../../../shared/input-messages';

// The part of the OSV schema (ossf.github.io/osv-schema, 1.x) the mapping reads. Objects are loose:
// OSV producers add fields (database_specific, ecosystem_specific, …) that orgsec ignores. What the
// mapping relies on is checked here, so a malformed advisory is refused with a reason, never half mapped.

const timestamp = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'must be an RFC 3339 timestamp');
const version = z.string().min(1);

const event = z.union(
  [
    z.strictObject({ introduced: version }),
    z.strictObject({ fixed: version }),
    z.strictObject({ last_affected: version }),
    z.strictObject({ limit: version }),
  ],
  { error: 'must have exactly one of introduced, fixed, last_affected or limit, a non-empty version' },
);

const range = z.looseObject({
  type: z.enum(['SEMVER', 'ECOSYSTEM', 'GIT']),
  repo: z.string().optional(),
  events: z.array(event).min(1),
});

const affected = z.looseObject({
  package: z.looseObject({ ecosystem: z.string().min(1), name: z.string().min(1) }),
  ranges: z.array(range).default([]),
  versions: z.array(version).default([]),
  ecosystem_specific: z.record(z.string(), z.unknown()).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});

// `database_specific` is each database's own: only GitHub's keys are typed; a key another database
// uses with another type (`severity`, `type`) is read as absent rather than refusing the advisory.
const stringOrAbsent = z
  .unknown()
  .transform((value) => (typeof value === 'string' ? value : null))
  .optional();

const databaseSpecific = z.looseObject({
  severity: stringOrAbsent,
  cwe_ids: z.array(z.string()).nullable().optional(),
  github_reviewed: z.boolean().nullable().optional(),
  github_reviewed_at: timestamp.nullable().optional(),
  nvd_published_at: timestamp.nullable().optional(),
  type: stringOrAbsent,
});

export const osvAdvisorySchema = z.looseObject({
  id: z.string().min(1),
  modified: timestamp,
  published: timestamp.optional(),
  withdrawn: timestamp.nullable().optional(),
  aliases: z.array(z.string()).nullable().default([]),
  summary: z.string().nullable().optional(),
  details: z.string().nullable().optional(),
  severity: z.array(z.looseObject({ type: z.string(), score: z.string() })).nullable().default([]),
  affected: z.array(affected).nullable().default([]),
  references: z.array(z.looseObject({ type: z.string().optional(), url: z.string() })).nullable().default([]),
  credits: z
    .array(z.looseObject({ name: z.string(), contact: z.array(z.string()).default([]), type: z.string().optional() }))
    .nullable()
    .default([]),
  database_specific: databaseSpecific.nullable().optional(),
});

export type OsvAdvisory = z.infer<typeof osvAdvisorySchema>;
export type OsvAffected = z.infer<typeof affected>;

/** `affected[0].ranges[1].events` from zod's path. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');
}

/** The advisory, or one sentence naming the first problem (`"modified" must be a string.`). */
export function parseOsvAdvisory(value: unknown): { ok: true; advisory: OsvAdvisory } | { ok: false; reason: string } {
  const result = osvAdvisorySchema.safeParse(value, INPUT_PARSE_OPTIONS);
  if (result.success) return { ok: true, advisory: result.data };
  const issue = result.error.issues[0];
  return { ok: false, reason: issue ? fieldSentence(pathText(issue.path), issue) : 'not an OSV advisory' };
}
