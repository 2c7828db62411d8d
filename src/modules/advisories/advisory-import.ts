import type { Knex } from 'knex';
import { withTransaction } from '../../database/transaction';
import type { AdvisoryImportStore, AdvisoryWrite, UpsertOutcome } from './advisories.import-store';
import { commandActor } from '../audit-log/audit-actors';
import type { AuditActor, AuditChange } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import { modifiedKey, unstorableReason } from './advisories.import-store';
import { mapOsvAdvisory, readOsvSources, type MappingNote, type OsvDocument, type OsvSourceItem } from './osv';
import { renderRangeText, storedVulnerabilitiesOf } from './stored-vulnerabilities';

// `orgsec advisories import PATH...` (interfaces.md "Advisory database"): every OSV file under
// the PATHs, read one at a time and decided in batches of BATCH_FILES (memory follows the batch,
// not the number of files); each file is written whole or not at all (see write). Counts are
// disjoint: every file is exactly one of imported, updated, unchanged, withdrawn (a withdrawn
// advisory written now) or skipped (malformed files included).

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

/** Files decided together: one look-up of their stored revisions, and one write transaction. */
const BATCH_FILES = 100;

type Outcome = keyof ImportSummary;

/** The stored revision is this one or newer: decided from the raw document, before any mapping. */
function isUnchanged(document: OsvDocument, stored: ReadonlyMap<string, string | null>): boolean {
  const modified = document['modified'];
  const storedModified = stored.get(document.id);
  if (typeof modified !== 'string' || typeof storedModified !== 'string' || Number.isNaN(Date.parse(modified))) return false;
  return storedModified >= modifiedKey(modified);
}

export class AdvisoryImporter {
  constructor(private readonly deps: { db: Knex; store: AdvisoryImportStore; audit: AuditRecorder }) {}

  /** Imports every OSV file under `paths`; each transaction that writes advisories records them by `actor` (default: the command's user). */
  async importPaths(paths: readonly string[], listener: ImportListener, actor: AuditActor = commandActor()): Promise<ImportSummary> {
    const summary: ImportSummary = { imported: 0, updated: 0, unchanged: 0, withdrawn: 0, skipped: 0, malformed: 0 };
    let batch: OsvSourceItem[] = [];
    const flush = async (): Promise<void> => {
      for (const outcome of await this.importBatch(batch, listener, actor)) {
        summary[outcome] += 1;
        if (outcome === 'malformed') summary.skipped += 1;
      }
      batch = [];
    };
    let filesRead = 0;
    for await (const item of readOsvSources(paths)) {
      // The same id twice in one batch: the first is written before the second is decided.
      if ('document' in item && batch.some((other) => 'document' in other && other.document.id === item.document.id)) await flush();
      batch.push(item);
      if (batch.length >= BATCH_FILES) await flush();
      listener.onFile?.((filesRead += 1));
    }
    await flush();
    return summary;
  }

  private async importBatch(items: readonly OsvSourceItem[], listener: ImportListener, actor: AuditActor): Promise<Outcome[]> {
    const stored = await this.deps.store.modifiedByIds(this.deps.db, items.flatMap((item) => ('document' in item ? [item.document.id] : [])));
    const outcomes: Outcome[] = [];
    const writes: Array<{ index: number; write: AdvisoryWrite }> = [];
    items.forEach((item, index) => {
      const decided = 'error' in item ? malformed(item.path, null, item.error.reason, listener) : this.decide(item.path, item.document, stored, listener);
      if (typeof decided === 'string') outcomes[index] = decided;
      else writes.push({ index, write: decided });
    });
    const written = await this.write(writes.map(({ write }) => write), actor);
    writes.forEach(({ index, write }, i) => {
      const outcome = written[i]!;
      outcomes[index] = outcome !== 'unchanged' && write.advisory.withdrawnAt !== null ? 'withdrawn' : outcome;
    });
    return outcomes;
  }

  /** What a file comes to before any write: an outcome, or the advisory to write. */
  private decide(path: string, document: OsvDocument, stored: ReadonlyMap<string, string | null>, listener: ImportListener): Outcome | AdvisoryWrite {
    // Most files of a re-import are unchanged: decided without mapping them.
    if (isUnchanged(document, stored)) return 'unchanged';
    const mapping = mapOsvAdvisory(document, renderRangeText);
    if (mapping.kind === 'malformed') return malformed(path, mapping.id, mapping.reason, listener);
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
    return { advisory, vulnerabilities };
  }

  /**
   * The batch's advisories in one transaction. Should it fail, each is written again in a
   * transaction of its own, so that a failure is its file's alone: every file is written whole
   * or not at all, and never takes another file's advisory down with it.
   */
  private async write(writes: readonly AdvisoryWrite[], actor: AuditActor): Promise<UpsertOutcome[]> {
    if (writes.length === 0) return [];
    const { db, store } = this.deps;
    const recorded = async (trx: Knex.Transaction, batch: readonly AdvisoryWrite[], outcomes: UpsertOutcome[]): Promise<UpsertOutcome[]> => {
      await this.deps.audit.record(trx, actor, importRecords(batch, outcomes));
      return outcomes;
    };
    try {
      return await withTransaction(db, async (trx) => recorded(trx, writes, await store.upsertMany(trx, writes)));
    } catch {
      const outcomes: UpsertOutcome[] = [];
      for (const write of writes) {
        outcomes.push(...await withTransaction(db, async (trx) => recorded(trx, [write], [await store.upsert(trx, write.advisory, write.vulnerabilities)])));
      }
      return outcomes;
    }
  }
}

function malformed(path: string, id: string | null, reason: string, listener: ImportListener): 'malformed' {
  listener.onProblem({ path, id, kind: 'malformed', reason });
  return 'malformed';
}

/** A transaction's record of the advisories it wrote (none when every one was unchanged): the global database's, of no organization. */
function importRecords(writes: readonly AdvisoryWrite[], outcomes: readonly UpsertOutcome[]): AuditChange[] {
  const ids = (outcome: UpsertOutcome) => writes.flatMap((write, i) => (outcomes[i] === outcome ? [write.advisory.svcsaId] : []));
  const imported = ids('imported');
  const updated = ids('updated');
  if (imported.length + updated.length === 0) return [];
  return [{ action: 'advisory.import', operation: imported.length > 0 ? 'create' : 'modify', data: { imported, updated } }];
}
