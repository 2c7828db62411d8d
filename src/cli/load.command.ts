import fs from 'node:fs';
import type { Command } from 'commander';
import { createServices } from '../composition';
import type { LoadSummary } from '../modules/world/world.loader';
import { withMigratedDatabase } from './database-option';
import { openWorldFile } from './world-file';
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

export function registerLoad(program: Command, output: Output): void {
  program
    .command('load')
    .description('load a world file: inserts or updates by natural keys, all or nothing')
    .argument('<file>', 'world file (JSON)')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

Examples:
  $ orgsec load db/demo-world.json
  $ orgsec load world.json --replace --database data/staging.sqlite`)
    .option('--replace', 'empty the database first')
    .action(async (file: string, options: { database?: string; replace?: boolean }) => {
      const config = configFromOptions(options);
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
