import type { Knex } from 'knex';
import { withTransaction } from '../../database/transaction';
import type { AdvisoryImportStore } from './advisories.import-store';
import { readEpssFile, type EpssLineError, type EpssScore } from './osv';
import { commandActor } from '../audit-log/audit-actors';
import type { AuditActor } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';

// `orgsec advisories import-epss FILE` (interfaces.md "Advisory database"): the published EPSS
// CSV, plain or gzip, read line by line. The whole file is one transaction (a day's scores are
// one fact: never half of them); scores are looked up and written in batches by CVE.

export interface EpssImportSummary {
  /** Score lines read. */
  scores: number;
  /** Advisories whose scores changed. */
  updated: number;
  model: { version: string | null; scoreDate: string | null } | null;
}

const BATCH = 500;

export class EpssImporter {
  constructor(private readonly deps: { db: Knex; store: AdvisoryImportStore; audit: AuditRecorder }) {}

  /** Sets the file's scores in one transaction, recorded (when any changed) by `actor`, by default the command's user. */
  async importFile(path: string, onLineError: (error: EpssLineError) => void, onProgress?: (scores: number) => void, actor: AuditActor = commandActor()): Promise<EpssImportSummary> {
    return withTransaction(this.deps.db, async (trx) => {
      const summary: EpssImportSummary = { scores: 0, updated: 0, model: null };
      let batch: EpssScore[] = [];
      const flush = async (): Promise<void> => {
        summary.updated += await this.deps.store.setEpss(trx, batch);
        batch = [];
        onProgress?.(summary.scores);
      };
      for await (const item of readEpssFile(path)) {
        if ('model' in item) summary.model = item.model;
        else if ('error' in item) onLineError(item.error);
        else {
          summary.scores += 1;
          batch.push(item.score);
          if (batch.length >= BATCH) await flush();
        }
      }
      await flush();
      if (summary.updated > 0) {
        await this.deps.audit.record(trx, actor, [{ action: 'advisory.epss_import', operation: 'modify', data: { scores: summary.scores, updated: summary.updated, model: summary.model } }]);
      }
      return summary;
    });
  }
}
