import type { Knex } from 'knex';
import { withTransaction } from '../../database/transaction';
import type { AdvisoryImportStore, UpsertOutcome } from './advisories.import-store';
import { modifiedKey, unstorableReason } from './advisories.import-store';
import { mapOsvAdvisory, readOsvSources, type MappingNote } from './osv';
import { renderRangeText, storedVulnerabilitiesOf } from './stored-vulnerabilities';

// `orgsec advisories import PATH...` (interfaces.md "Advisory database"): every OSV file under
// the PATHs, one at a time (memory does not grow with their number), each in its own
// transaction. Counts are disjoint: every file is exactly one of imported, updated, unchanged,
// withdrawn (a withdrawn advisory written now) or skipped (malformed files included).

export interface ImportSummary {
  imported: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  skipped: number;
  /** Files that are not valid OSV: the command exits 1. */
  malformed: number;
}

/** A file left out (or a part of one), with why: the summary lists every one. */
export interface ImportProblem {
  path: string;
  id: string | null;
  kind: 'malformed' | 'skipped' | 'note';
  reason: string;
}

export interface ImportListener {
  onProblem(problem: ImportProblem): void;
  /** Called after every file; the caller decides how often to show it. */
  onFile?(filesRead: number): void;
}

function noteText(note: MappingNote): string | null {
  switch (note.kind) {
    case 'range-skipped':
      return `a range of ${note.ecosystem}/${note.package} was skipped: ${note.reason}`;
    case 'cvss-malformed':
      return `its ${note.type} vector ${note.vector} was ignored: ${note.reason}`;
    case 'unknown-ecosystem':
      return null; // the other packages were imported; an ecosystem orgsec does not serve is no problem of the file
  }
}

export class AdvisoryImporter {
  constructor(private readonly deps: { db: Knex; store: AdvisoryImportStore }) {}

  async importPaths(paths: readonly string[], listener: ImportListener): Promise<ImportSummary> {
    const summary: ImportSummary = { imported: 0, updated: 0, unchanged: 0, withdrawn: 0, skipped: 0, malformed: 0 };
    let filesRead = 0;
    for await (const item of readOsvSources(paths)) {
      filesRead += 1;
      if ('error' in item) {
        summary.skipped += 1;
        summary.malformed += 1;
        listener.onProblem({ path: item.path, id: null, kind: 'malformed', reason: item.error.reason });
      } else {
        const outcome = await this.importDocument(item.path, item.document, listener);
        summary[outcome] += 1;
        if (outcome === 'malformed') summary.skipped += 1;
      }
      listener.onFile?.(filesRead);
    }
    return summary;
  }

  private async importDocument(path: string, document: unknown, listener: ImportListener): Promise<keyof ImportSummary> {
    const mapping = mapOsvAdvisory(document, renderRangeText);
    if (mapping.kind === 'malformed') {
      listener.onProblem({ path, id: mapping.id, kind: 'malformed', reason: mapping.reason });
      return 'malformed';
    }
    if (mapping.kind === 'skipped') {
      listener.onProblem({ path, id: mapping.id, kind: 'skipped', reason: mapping.reason });
      return 'skipped';
    }
    const { advisory, notes } = mapping;
    const vulnerabilities = advisory.vulnerabilities.flatMap(storedVulnerabilitiesOf);
    const unstorable = unstorableReason(advisory, vulnerabilities);
    if (unstorable !== null) {
      listener.onProblem({ path, id: advisory.svcsaId, kind: 'skipped', reason: unstorable });
      return 'skipped';
    }
    for (const note of notes) {
      const reason = noteText(note);
      if (reason !== null) listener.onProblem({ path, id: advisory.svcsaId, kind: 'note', reason });
    }
    // Most files of a re-import are unchanged: that is decided by a read, without a write transaction.
    const stored = await this.deps.store.modifiedOf(this.deps.db, advisory.svcsaId);
    const outcome: UpsertOutcome = typeof stored === 'string' && stored >= modifiedKey(advisory.updatedAt)
      ? 'unchanged'
      : await withTransaction(this.deps.db, (trx) => this.deps.store.upsert(trx, advisory, vulnerabilities));
    return outcome !== 'unchanged' && advisory.withdrawnAt !== null ? 'withdrawn' : outcome;
  }
}
