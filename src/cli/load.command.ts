import fs from 'node:fs';
import type { Command } from 'commander';
import { createServices } from '../composition';
import type { LoadSummary } from '../modules/world/world.loader';
import { withMigratedDatabase } from './database-option';
import { openWorldFile } from './world-file';
import { isExportFile, openExportFile } from './export-file';
import { restoreDatabase } from '../database/restore';
import type { Config } from '../config';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';
import type { Output } from './output';

/** Reads a small world file whole (the bundled demo world). */
export function readWorldFile(file: string): unknown {
  const text = fs.readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export function printSummary(output: Output, summary: LoadSummary): void {
  const counts = Object.entries(summary.counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  output.out(`Loaded ${counts.length ? counts.join(', ') : 'nothing'}.`);
  if (summary.generatedTokens.length > 0) {
    output.out('Generated tokens (shown only now; store them safely):');
    for (const t of summary.generatedTokens) output.out(`  ${t.description}: ${t.token}`);
  }
}

/** `orgsec load EXPORT --replace`: the database becomes the export, row for row. */
async function restoreExport(file: string, config: Config, replace: boolean, output: Output): Promise<void> {
  if (!replace) throw new Error(`${file} is an export of a whole database: add --replace to restore it (it empties the database first)`);
  const exported = await openExportFile(file);
  await withMigratedDatabase(config, async (db) => {
    const counts = await restoreDatabase(db, exported.header, () => exported.batches());
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    output.out(`Restored ${rows.toLocaleString('en-US')} rows of ${Object.keys(counts).length} tables, exported from ${exported.header.source} at ${exported.header.exported_at}.`);
  });
}

export function registerLoad(program: Command, output: Output): void {
  program
    .command('load')
    .description('load a world file: inserts or updates by natural keys, all or nothing')
    .argument('<file>', 'world file (JSON)')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

An export (\`orgsec export\`) is loaded with --replace: it restores every row as exported.

Examples:
  $ orgsec load db/demo-world.json
  $ orgsec load world.json --replace --database data/staging.sqlite
  $ orgsec load orgsec-export.json --replace`)
    .option('--replace', 'empty the database first')
    .action(async (file: string, options: { database?: string; replace?: boolean }) => {
      const config = configFromOptions(options);
      if (isExportFile(file)) {
        await restoreExport(file, config, options.replace === true, output);
        return;
      }
      const world = await openWorldFile(file);
      await withMigratedDatabase(config, async (db) => {
        const summary = await createServices(db).world.loadSource(world, {
          replace: options.replace === true,
          onProgress: (message) => output.err(message),
        });
        printSummary(output, summary);
      });
    });
}
