import type { Command } from 'commander';
import { withMigratedDatabase } from './database-option';
import { writeExportFile } from './export-file';
import type { Output } from './output';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';

export function registerExport(program: Command, output: Output): void {
  program
    .command('export')
    .description('write every row of the database to FILE, as of one moment, while it serves')
    .argument('<file>', 'the export to write (must not exist)')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

The export is a JSON file that \`orgsec load FILE --replace\` restores into any database of a
release at the same migration: SQLite or PostgreSQL, whichever it came from. It holds every
row as it was when the export began (tokens as their hashes, webhook secrets and the OIDC
signing keys as stored): keep it as safe as the database.

Examples:
  $ orgsec export orgsec-$(date +%F).json
  $ orgsec export moved.json --database data/orgsec.sqlite && orgsec load moved.json --replace --database postgres://orgsec@db:5432/orgsec`)
    .action(async (file: string, options: { database?: string }) => {
      const started = Date.now();
      const counts = await withMigratedDatabase(configFromOptions(options), (db) => writeExportFile(db, file));
      const rows = Object.values(counts).reduce((a, b) => a + b, 0);
      output.out(`Exported ${rows.toLocaleString('en-US')} rows of ${Object.keys(counts).length} tables to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    });
}
