import { sbomSchema, snapshotCreatedSchema } from '../modules/dependency-graph/dependency-graph.responses';
import { MAX_MANIFESTS, MAX_METADATA_KEYS, MAX_RESOLVED_PER_MANIFEST, MAX_SNAPSHOT_BYTES, repoPath, snapshotBody } from '../modules/dependency-graph/dependency-graph.schemas';
import type { Operation } from './operation';
import { MAX_SBOM_BYTES, sbomUploadBody, sbomUploadQuery, sbomUploadedSchema } from '../modules/sbom/sbom.schemas';

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
  uploadSbom: {
    number: 68, operationId: 'dependency-graph/upload-sbom', method: 'post', path: '/repos/{owner}/{repo}/dependency-graph/sbom-uploads', success: 201,
    request: { params: repoPath, query: sbomUploadQuery, body: sbomUploadBody },
    response: { schema: sbomUploadedSchema },
    requirement: { target: 'repo', scopes: ['repo'], publicScopes: ['public_repo'], permission: ['contents', 'write'], caller: 'repoWriter' },
    docs: { tag: TAG, summary: 'Upload an SBOM as a snapshot of dependencies', statuses: [413, 503], rules: [
        'The body is a CycloneDX 1.4–1.6 JSON BOM or an SPDX 2.3 JSON document (XML is not read), checked against its specification; '
        + 'each problem (the first ten) answers 422 naming its JSON pointer, and nothing is recorded.',
        'It is recorded as a snapshot of one manifest, exactly as a submitted snapshot is: the same alerts, triage, webhook events and limits '
        + `(${MAX_RESOLVED_PER_MANIFEST.toLocaleString('en-US')} packages, ${MAX_SBOM_BYTES / 2 ** 20} MiB of body, 413 beyond).`,
        'Each component with a package URL is a package (one listed twice counts once); its dependencies are the ones the graph gives it '
        + '(CycloneDX `dependencies`, SPDX `DEPENDS_ON`, `DEPENDENCY_OF` and their kinds); it is direct when the described subject depends on it, '
        + 'indirect when only other components do, and of development scope when it is optional or excluded (CycloneDX) or only a dev, test or build dependency (SPDX).',
        'Components without a package URL, and the subject itself, are skipped and listed; a package URL that does not parse, a relationship '
        + 'naming no element of the document, or a document with nothing to record is refused (422).',
      ] },
  },
} satisfies Record<string, Operation>;
