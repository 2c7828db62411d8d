import { sbomSchema, snapshotCreatedSchema } from '../modules/dependency-graph/dependency-graph.responses';
import { MAX_MANIFESTS, MAX_METADATA_KEYS, MAX_RESOLVED_PER_MANIFEST, MAX_SNAPSHOT_BYTES, repoPath, snapshotBody } from '../modules/dependency-graph/dependency-graph.schemas';
import type { Operation } from './operation';

// Interfaces.md Part 2, "Dependency snapshots and computed alerts", S1–S2 (#30 and #31, after the advisory database).

const TAG = 'dependency-graph';

export const DEPENDENCY_GRAPH_OPERATIONS = {
  createDependencySnapshot: {
    number: 30, operationId: 'dependency-graph/create-repository-snapshot', method: 'post', path: '/repos/{owner}/{repo}/dependency-graph/snapshots', success: 201,
    request: { params: repoPath, body: snapshotBody },
    response: { schema: snapshotCreatedSchema },
    requirement: { target: 'repo', scopes: ['repo'], publicScopes: ['public_repo'], permission: ['contents', 'write'], caller: 'repoWriter' },
    docs: { tag: TAG, summary: 'Create a snapshot of dependencies for a repository', rules: [
        '`result` is `SUCCESS` when the snapshot now describes the default branch\'s dependencies, `ACCEPTED` when it was stored but not applied: '
        + 'its `ref` is not `refs/heads/<default branch>`, or a snapshot with a later `scanned` for the same `job.correlator` and `detector.name` is current, '
        + 'or it was queued (the `message` says so) because the instance was answering other requests: it is then applied shortly, in the order snapshots came.',
        'A full queue (one that would take longer than SNAPSHOT_QUEUE_MAX_DELAY seconds to apply) answers 503 with `Retry-After`, before the body is read, and stores nothing.',
        'The current dependencies are the latest applied snapshot per (`job.correlator`, `detector.name`); a manifest name described by several '
        + 'belongs to the first correlator in alphabetical order, and the same detector under other correlators adds its packages to it.',
        `Limits: ${MAX_MANIFESTS} manifests per snapshot, ${MAX_RESOLVED_PER_MANIFEST.toLocaleString('en-US')} resolved packages per manifest, `
        + `${MAX_METADATA_KEYS} keys per metadata object, ${MAX_SNAPSHOT_BYTES / 2 ** 20} MiB of body (413 beyond).`,
        'Every field is checked (a `package_url` must parse as a package URL); an invalid one answers 422 naming it, and nothing is stored.',
      ] },
  },
  getDependencySbom: {
    number: 31, operationId: 'dependency-graph/export-sbom', method: 'get', path: '/repos/{owner}/{repo}/dependency-graph/sbom', success: 200,
    // With no snapshot, creationInfo.created is the moment it was made: its ETag is its bytes'.
    uncached: true,
    request: { params: repoPath },
    response: { schema: sbomSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['contents', 'read'], caller: 'repoReader', publicRead: true },
    docs: { tag: TAG, summary: 'Export a software bill of materials (SBOM) for a repository', rules: [
        'An SPDX 2.3 document of the current dependencies: the repository is the described package and depends on every package; '
        + 'a package depends on the packages its `dependencies` name. A package URL without a version is listed without `versionInfo`.',
      ] },
  },
} satisfies Record<string, Operation>;
