import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { NotFoundError, ValidationError } from '../../errors/domain';
import type { AccountsStore } from '../accounts/accounts.store';
import type { AlertsStore } from '../dependency-alerts/alerts.store';
import type { AlertState } from '../dependency-alerts/alerts.types';
import type { RepositoryRecord } from '../accounts/accounts.types';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import type { AuditActor } from '../audit-log/audit-log.types';
import type { DependencyGraphService } from '../dependency-graph/dependency-graph.service';
import type { SnapshotReceipt } from '../dependency-graph/dependency-graph.types';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import type { SnapshotRequestWork } from '../dependency-graph/snapshot-queue';
import { readSbom } from './sbom-reader';
import { snapshotOfSbom, type SbomSummary } from './sbom-snapshot';
import type { SbomFormat, SbomProblem } from './sbom.types';

// SBOM uploads (issue 39): a CycloneDX or SPDX document recorded as a dependency snapshot of one
// manifest, through the same path as #30's submissions: the same alert computation, lifecycle,
// auto-triage, webhook events and audit record.

/** What the uploader may say of the snapshot; the rest comes from the document and the repository. */
export interface SbomUploadOptions {
  /** The manifest's name (default: the name of the subject the document describes, else "sbom"). */
  manifest?: string | undefined;
  /** Default: the repository's default branch. */
  ref?: string | undefined;
  /** The commit the document describes (default: forty zeros, none named). */
  sha?: string | undefined;
  /** Uploads of one correlator replace each other (default: "sbom-upload <manifest>"). */
  correlator?: string | undefined;
}

export interface SbomUploadReceipt extends SnapshotReceipt {
  format: `${SbomFormat} ${string}`;
  manifest: string;
  summary: SbomSummary;
}

const NO_SHA = '0'.repeat(40);
const MAX_MANIFEST_NAME = 255;

export const SBOM_RESOURCE = 'SbomUpload';

function refused(problems: readonly SbomProblem[]): ValidationError {
  return new ValidationError(
    `The document was not recorded: ${problems[0]!.path} ${problems[0]!.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''}.`,
    problems.map((p) => ({ resource: SBOM_RESOURCE, field: p.path, code: 'invalid', message: p.message })),
  );
}

export class SbomUploadService {
  constructor(private readonly deps: {
    db: Knex; lookups: AuthorizedLookups; snapshots: DependencySnapshotsStore; dependencyGraph: DependencyGraphService; accounts: AccountsStore; alerts: AlertsStore;
  }) {}

  /** Authorized as #30 (before the document is read), then read, checked and submitted as a snapshot. */
  async upload(principal: Principal, owner: string, name: string, text: string, options: SbomUploadOptions, work: SnapshotRequestWork = {}): Promise<SbomUploadReceipt> {
    const repo = await this.deps.lookups.repo(this.deps.db, principal, 'uploadSbom', owner, name);
    const built = await this.build(repo, text, options);
    const receipt = await this.deps.dependencyGraph.submit(principal, owner, name, built.input, work);
    return { ...receipt, format: built.format, manifest: built.manifest, summary: built.summary };
  }

  /** `orgsec sbom submit`: the operator's upload to a repository they name, applied at once; with the repository's alerts counted after it. */
  async uploadAsOperator(owner: string, name: string, text: string, options: SbomUploadOptions, actor: AuditActor): Promise<SbomUploadReceipt & { alerts: Record<AlertState, number> }> {
    const repo = await this.deps.accounts.findRepository(this.deps.db, owner, name);
    if (!repo) throw new NotFoundError();
    const built = await this.build(repo, text, options);
    const receipt = await this.deps.dependencyGraph.submitAsOperator(repo, built.input, actor);
    return { ...receipt, format: built.format, manifest: built.manifest, summary: built.summary, alerts: await this.deps.alerts.countByState(this.deps.db, repo.id) };
  }

  private async build(repo: RepositoryRecord, text: string, options: SbomUploadOptions) {
    const reading = readSbom(text);
    if (!reading.ok) throw refused(reading.problems);
    const { graph } = reading;
    const manifest = (options.manifest ?? graph.subject?.name ?? 'sbom').slice(0, MAX_MANIFEST_NAME);
    const ref = options.ref ?? `refs/heads/${await this.deps.snapshots.defaultBranchOf(this.deps.db, repo.id)}`;
    const built = snapshotOfSbom(graph, {
      manifest, ref, sha: (options.sha ?? NO_SHA).toLowerCase(), correlator: options.correlator ?? `sbom-upload ${manifest}`.slice(0, MAX_MANIFEST_NAME),
      scanned: new Date().toISOString(),
    });
    if (!built.ok) throw refused(built.problems);
    return { input: built.input, summary: built.summary, manifest, format: `${graph.format} ${graph.specVersion}` as const };
  }
}
