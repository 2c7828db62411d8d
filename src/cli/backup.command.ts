import fs from 'node:fs';
import type { Command } from 'commander';
import { dialectOf } from '../database/dialect';
import { backupSqliteFile, type BackupProgress } from '../database/sqlite-backup';
import type { Output } from './output';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';

const MB = 2 ** 20;

/** A line at each tenth of a copy that takes more than one step (small databases are copied at once). */
export function progressPrinter(output: Output): (p: BackupProgress) => void {
  let printedTenth = 0;
  let restarts = 0;
  return ({ copiedPages, totalPages, restarts: now }) => {
    if (now > restarts) {
      restarts = now;
      printedTenth = 0;
      output.err('backup: the database was written meanwhile; copying again from the start');
    }
    const tenth = Math.floor((copiedPages / totalPages) * 10);
    if (copiedPages === 0 || copiedPages === totalPages || tenth <= printedTenth) return;
    printedTenth = tenth;
    output.err(`backup: ${tenth * 10}% (${copiedPages.toLocaleString('en-US')} of ${totalPages.toLocaleString('en-US')} pages)`);
  };
}

export function registerBackup(program: Command, output: Output): void {
  program
    .command('backup')
    .description('write a consistent copy of the live SQLite database to FILE, while it serves')
    .argument('<file>', 'the copy to write (must not exist)')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

The copy is taken with SQLite's online backup API: serving instances go on reading and
writing meanwhile, and the copy is of one moment. It is checked (PRAGMA quick_check) before it
gets its name. To restore, stop orgsec and put the copy in the database's place (or serve it
with --database FILE). For PostgreSQL use pg_dump and pg_restore (README, "Operating orgsec").

Examples:
  $ orgsec backup backups/orgsec-$(date +%F).sqlite
  $ orgsec backup /mnt/backups/orgsec.sqlite --database /var/lib/orgsec/orgsec.sqlite`)
    .action(async (file: string, options: { database?: string }) => {
      const { databaseUrl } = configFromOptions(options);
      if (dialectOf(databaseUrl) === 'postgres') {
        throw new Error('orgsec backup copies SQLite databases; for PostgreSQL use pg_dump (see the README, "Operating orgsec")');
      }
      if (!fs.existsSync(databaseUrl)) throw new Error(`there is no database at ${databaseUrl}`);
      const started = Date.now();
      const result = await backupSqliteFile(databaseUrl, file, { onProgress: progressPrinter(output) });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      output.out(`Backed up ${databaseUrl} to ${file}: ${result.totalPages.toLocaleString('en-US')} pages, ${(result.bytes / MB).toFixed(1)} MB, in ${seconds} s.`);
    });
}
