import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

// A consistent copy of a live SQLite database through SQLite's online backup API
// (better-sqlite3's `backup`): it copies the pages in steps, each in a read transaction, so
// the server writing meanwhile is never blocked (WAL). A write by another connection between
// steps makes SQLite start the copy again from the first page, so the copy is always of one
// moment; under steady writes the steps grow until one takes the rest in a single read
// transaction, which writers in WAL mode do not wait for either.

/** Pages per step at first: 16 MB of 4 KB pages, a fraction of a second. */
export const BACKUP_STEP_PAGES = 4096;
/** After this many restarts the rest is copied in one step. */
const RESTARTS_BEFORE_ONE_STEP = 2;
/** better-sqlite3 takes "every remaining page" as the largest count it accepts. */
const ALL_PAGES = 0x7fffffff;

export interface BackupProgress {
  copiedPages: number;
  totalPages: number;
  /** Times a write by another connection made SQLite start again. */
  restarts: number;
}

export interface BackupResult extends BackupProgress {
  bytes: number;
}

/**
 * Copies `sourceFile` to `targetFile`, which must not exist: the copy is written beside it
 * (`.partial`), checked with `PRAGMA quick_check`, and only then given its name, so a
 * backup stopped half-way never passes for a whole one.
 */
export async function backupSqliteFile(sourceFile: string, targetFile: string, options: { onProgress?: (p: BackupProgress) => void; stepPages?: number } = {}): Promise<BackupResult> {
  if (fs.existsSync(targetFile)) throw new Error(`${targetFile} exists: a backup never overwrites a file, give it a new name`);
  if (!fs.existsSync(path.dirname(path.resolve(targetFile)))) throw new Error(`${path.dirname(targetFile)} does not exist: make the directory first`);
  const partial = `${targetFile}.partial`;
  fs.rmSync(partial, { force: true });
  // Read-write, though it only reads: a read-only connection could not remove the log files it opens.
  const source = new BetterSqlite3(sourceFile, { fileMustExist: true });
  let step = options.stepPages ?? BACKUP_STEP_PAGES;
  let restarts = 0;
  let lastRemaining = Infinity;
  let totalPages = 0;
  try {
    const done = await source.backup(partial, {
      progress: ({ totalPages: total, remainingPages }) => {
        if (remainingPages > lastRemaining) {
          restarts += 1;
          step = restarts >= RESTARTS_BEFORE_ONE_STEP ? ALL_PAGES : step * 4;
        }
        lastRemaining = remainingPages;
        totalPages = total;
        options.onProgress?.({ copiedPages: total - remainingPages, totalPages: total, restarts });
        return step;
      },
    });
    totalPages = done.totalPages;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    source.close();
  }
  checkCopy(partial);
  // link() fails where the name was taken meanwhile: never a silent overwrite.
  fs.linkSync(partial, targetFile);
  fs.rmSync(partial);
  return { copiedPages: totalPages, totalPages, restarts, bytes: fs.statSync(targetFile).size };
}

function checkCopy(file: string): void {
  const copy = new BetterSqlite3(file, { fileMustExist: true });
  try {
    const verdict = copy.pragma('quick_check', { simple: true });
    if (verdict !== 'ok') throw new Error(`the copy failed its check (${String(verdict)}): the source may be damaged; run PRAGMA integrity_check on it`);
    // The copy keeps the source's WAL mode; its log is folded in and removed on close.
  } catch (error) {
    copy.close();
    fs.rmSync(file, { force: true });
    throw error;
  }
  copy.close();
}
