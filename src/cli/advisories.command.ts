import fs from 'node:fs';
import type { Command } from 'commander';
import { createServices, type Services } from '../composition';
import type { ImportProblem, ImportSummary } from '../modules/advisories/advisory-import';
import { withMigratedDatabase } from './database-option';
import { demoAdvisoriesPath } from './paths';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';
import type { Output } from './output';

const PROGRESS_EVERY_MS = 2_000;

/** A progress line on stderr at most every PROGRESS_EVERY_MS: short imports print none. */
function progressPrinter(output: Output, what: string): (count: number) => void {
  let last = Date.now();
  return (count) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    output.err(`… ${count.toLocaleString('en-US')} ${what}`);
  };
}

function problemLine({ path, id, kind, reason }: ImportProblem): string {
  const label = kind === 'malformed' ? 'malformed' : kind === 'skipped' ? 'skipped' : 'note';
  return `${label}: ${path}${id !== null ? ` (${id})` : ''}: ${reason}`;
}

function summaryLine(s: ImportSummary): string {
  return `${s.imported} imported, ${s.updated} updated, ${s.unchanged} unchanged, ${s.withdrawn} withdrawn, ${s.skipped} skipped`;
}

/**
 * An `advisories` subcommand on the database: its argument, the --database flag, and help
 * saying what it does, then DATABASE_URL, then examples (both subcommands read the same way).
 */
function databaseSubcommand(advisories: Command, spec: { name: string; description: string; argument: [string, string]; about: string; examples: string }): Command {
  return advisories
    .command(spec.name)
    .description(spec.description)
    .argument(...spec.argument)
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `
${spec.about}
${environmentHelp(['DATABASE_URL'])}

Examples:
${spec.examples}`);
}

function registerImport(advisories: Command, output: Output): void {
  databaseSubcommand(advisories, {
    name: 'import',
    description: 'import OSV advisories: files, folders of them (walked for *.json) and .zip dumps; each file written whole or not at all',
    argument: ['<path...>', 'OSV JSON file, folder or .zip'],
    about: `Inserts new ids, updates an id whose "modified" is newer, leaves the rest. Prints
"N imported, M updated, K unchanged, W withdrawn, S skipped" and every skipped file with
why; exits 1 when a file is malformed (the others are imported all the same). A PATH that
does not exist stops it before anything is imported.`,
    examples: `  $ git clone --depth 1 https://github.com/github/advisory-database.git
  $ orgsec advisories import advisory-database/advisories/github-reviewed
  $ curl -O https://osv-vulnerabilities.storage.googleapis.com/PyPI/all.zip
  $ orgsec advisories import all.zip --database postgres://orgsec@db:5432/orgsec
  $ orgsec advisories import GHSA-3fvg-4v2m-98jf.json`,
  })
    .action(async (paths: string[], options: { database?: string }) => {
      const config = configFromOptions(options);
      // A path mistyped or not yet downloaded is no malformed file: say so, and import nothing.
      const missing = paths.filter((p) => !fs.existsSync(p));
      if (missing.length > 0) throw new Error(`${missing.join(', ')}: no such file or folder`);
      const summary = await withMigratedDatabase(config, (db) =>
        createServices(db).advisoryImport.importPaths(paths, {
          onProblem: (problem) => output.out(problemLine(problem)),
          onFile: progressPrinter(output, 'files read'),
        }),
      );
      output.out(summaryLine(summary));
      if (summary.malformed > 0) throw new Error(`${summary.malformed} malformed file(s), listed above; the others were imported`);
    });
}

function registerImportEpss(advisories: Command, output: Output): void {
  databaseSubcommand(advisories, {
    name: 'import-epss',
    description: 'set the EPSS scores of advisories from the published CSV (cve,epss,percentile), plain or .gz',
    argument: ['<file>', 'EPSS scores file, e.g. epss_scores-2026-11-26.csv.gz'],
    about: `Sets epss.percentage and epss.percentile of every advisory with that CVE, all in one
transaction. A bad line is reported with its number and skipped.`,
    examples: `  $ curl -O https://epss.empiricalsecurity.com/epss_scores-current.csv.gz
  $ orgsec advisories import-epss epss_scores-current.csv.gz`,
  })
    .action(async (file: string, options: { database?: string }) => {
      const config = configFromOptions(options);
      if (!fs.existsSync(file)) throw new Error(`${file}: no such file`);
      let badLines = 0;
      const summary = await withMigratedDatabase(config, (db) =>
        createServices(db).epssImport.importFile(
          file,
          (error) => {
            badLines += 1;
            output.out(`skipped: ${file} line ${error.line}: ${error.reason}`);
          },
          progressPrinter(output, 'scores read'),
        ),
      );
      const model = summary.model?.version ? ` (model ${summary.model.version}, scores of ${summary.model.scoreDate ?? 'an unknown date'})` : '';
      output.out(`${summary.scores} scores read${model}, ${summary.updated} advisories updated, ${badLines} lines skipped`);
    });
}

/** `serve --demo` on an empty database: the real advisories shipped in db/advisories. */
export async function importDemoAdvisories(services: Services, output: Output): Promise<void> {
  const summary = await services.advisoryImport.importPaths([demoAdvisoriesPath()], { onProblem: (problem) => output.err(problemLine(problem)) });
  output.out(`Imported the demo advisories (db/advisories): ${summaryLine(summary)}.`);
}

export function registerAdvisories(program: Command, output: Output): void {
  const advisories = program.command('advisories').description('the advisory database: import OSV advisories and EPSS scores');
  registerImport(advisories, output);
  registerImportEpss(advisories, output);
}
