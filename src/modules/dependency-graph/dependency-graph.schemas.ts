import { z } from 'zod';
import { pathName } from '../../http/params';
import type { InputContext } from '../../http/validate';
import { storableText } from '../../shared/storable-text';
import type { ResolvedDependency, SnapshotInput, SnapshotManifest } from './dependency-graph.types';
import { readPurl } from './package-url';

// S1's body, the original's dependency submission, every field checked (a 422 names it).
// The limits keep one submission's work bounded; the README states them.

export const SNAPSHOT_INPUT: InputContext = { resource: 'DependencySnapshot', invalidStatus: 422 };

export const MAX_SNAPSHOT_BYTES = 4 * 1024 * 1024;
export const MAX_MANIFESTS = 100;
export const MAX_RESOLVED_PER_MANIFEST = 5_000;
const MAX_DEPENDENCIES_PER_PACKAGE = 1_000;
/** The original allows eight keys of scalar values in each metadata object. */
export const MAX_METADATA_KEYS = 8;

export const repoPath = z.object({ owner: pathName, repo: pathName });

/** A branch name as `refs/heads/<name>` ends (world files' `default_branch`). */
export const branchName = storableText().min(1).max(255).regex(/^[^\s~^:?*\[\\]+$/, 'must be a branch name such as main');

const text = (max: number) => storableText().min(1).max(max);
const url = z.url().max(2048);

const metadata = z
  .record(text(255), z.union([storableText().max(1024), z.number(), z.boolean(), z.null()]))
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `must have at most ${MAX_METADATA_KEYS} keys`);

/** At most `max` keys: a bounded map of the submission. */
const boundedRecord = <T extends z.ZodType>(value: T, max: number, what: string) =>
  z.record(text(1024), value).refine((r) => Object.keys(r).length <= max, `must have at most ${max.toLocaleString('en-US')} ${what}`);

/**
 * A package URL the purl library accepts, e.g. `pkg:npm/left-pad@1.3.0`, read once (checked and
 * turned into the package it names by the same parse).
 */
const packageUrl = storableText().max(2048).transform((value, ctx) => {
  if (!value.startsWith('pkg:')) {
    ctx.addIssue({ code: 'custom', message: 'must be a package URL starting with "pkg:", such as pkg:npm/left-pad@1.3.0' });
    return z.NEVER;
  }
  const read = readPurl(value);
  if ('problem' in read) {
    ctx.addIssue({ code: 'custom', message: `must be a valid package URL (${read.problem})` });
    return z.NEVER;
  }
  return { url: value, package: read.package };
});

const resolvedSchema = z.strictObject({
  package_url: packageUrl,
  metadata: metadata.optional(),
  relationship: z.enum(['direct', 'indirect']).optional(),
  scope: z.enum(['runtime', 'development']).optional(),
  dependencies: z.array(packageUrl).max(MAX_DEPENDENCIES_PER_PACKAGE).optional(),
});

const manifestSchema = z.strictObject({
  name: text(1024),
  file: z.strictObject({ source_location: text(1024).optional() }).optional(),
  metadata: metadata.optional(),
  resolved: boundedRecord(resolvedSchema, MAX_RESOLVED_PER_MANIFEST, 'resolved packages per manifest').optional(),
});

/** The body as sent (documented in /openapi.json as the JSON accepted); world files extend it. */
export const submissionSchema = z.strictObject({
  version: z.int().min(0).max(2 ** 31 - 1),
  job: z.strictObject({ id: text(255), correlator: text(255), html_url: url.optional() }),
  sha: z.string().regex(/^[0-9a-fA-F]{40}$/, 'must be a commit SHA: 40 hexadecimal digits'),
  ref: text(255).regex(/^refs\/\S+$/, 'must be a fully qualified Git reference starting with "refs/", such as refs/heads/main'),
  detector: z.strictObject({ name: text(255), version: text(255), url }),
  scanned: z.iso.datetime({ offset: true }),
  metadata: metadata.optional(),
  manifests: boundedRecord(manifestSchema, MAX_MANIFESTS, 'manifests').optional(),
});

export const snapshotBody = submissionSchema.transform(toSnapshotInput);

/** The domain form: purls read into packages, absent choices given their defaults. */
export function toSnapshotInput(body: z.output<typeof submissionSchema>): SnapshotInput {
  return {
    version: body.version,
    job: { id: body.job.id, correlator: body.job.correlator, htmlUrl: body.job.html_url ?? null },
    sha: body.sha.toLowerCase(),
    ref: body.ref,
    detector: body.detector,
    scanned: new Date(body.scanned).toISOString(),
    metadata: body.metadata ?? {},
    manifests: Object.entries(body.manifests ?? {}).map(([key, m]): SnapshotManifest => ({
      key,
      name: m.name,
      sourceLocation: m.file?.source_location ?? null,
      metadata: m.metadata ?? {},
      resolved: Object.entries(m.resolved ?? {}).map(([resolvedKey, r]): ResolvedDependency => ({
        key: resolvedKey,
        packageUrl: r.package_url.url,
        package: r.package_url.package,
        scope: r.scope ?? 'runtime',
        relationship: r.relationship ?? 'unknown',
        dependencies: (r.dependencies ?? []).map((d) => d.url),
        metadata: r.metadata ?? {},
      })),
    })),
  };
}
