import fs from 'node:fs';
import type { Command } from 'commander';
import { createServices } from '../composition';
import { NotFoundError, ValidationError } from '../errors/domain';
import { commandActor } from '../modules/audit-log/audit-actors';
import { MAX_SBOM_BYTES } from '../modules/sbom/sbom.schemas';
import { withMigratedDatabase } from './database-option';
import type { Output } from './output';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';

interface SubmitOptions {
  repo: string;
  manifest?: string;
  ref?: string;
  sha?: string;
  correlator?: string;
  database?: string;
}

const REPO = /^([^/\s]+)\/([^/\s]+)$/;

/** The document's text: a file, or standard input for "-". */
function readDocument(file: string): string {
  const size = file === '-' ? 0 : fs.statSync(file).size;
  if (size > MAX_SBOM_BYTES) throw new Error(`${file}: ${size.toLocaleString('en-US')} bytes; an SBOM upload reads at most ${MAX_SBOM_BYTES.toLocaleString('en-US')}`);
  return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
}

export function registerSbom(program: Command, output: Output): void {
  const sbom = program.command('sbom').description('software bills of materials: record one as a repository\'s dependencies');
  sbom
    .command('submit')
    .description('record a CycloneDX (1.4-1.6) or SPDX 2.3 JSON document as a snapshot of a repository\'s dependencies, as the sbom-uploads API does, and print its alerts')
    .argument('<file>', 'the document (- reads standard input)')
    .requiredOption('--repo <owner/repo>', 'the repository it describes')
    .option('--manifest <name>', 'the manifest the packages are recorded under (default: the name of what the document describes)')
    .option('--ref <ref>', 'the Git reference it describes (default: the default branch)')
    .option('--sha <sha>', 'the commit it describes')
    .option('--correlator <name>', 'uploads of one correlator replace each other (default: "sbom-upload <manifest>")')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `
Applied at once, with the same alerts, triage, webhook events and audit record (by orgsec-cli)
as an upload through the API. A document that fails its specification is refused, each problem
named by its JSON pointer, and nothing is recorded.
${environmentHelp(['DATABASE_URL'])}

Examples:
  $ npx @cyclonedx/cyclonedx-npm --omit dev --output-file sbom.cdx.json
  $ orgsec sbom submit sbom.cdx.json --repo acme-corp/api --manifest package-lock.json
  $ syft dir:. -o spdx-json | orgsec sbom submit - --repo acme-corp/api`)
    .action(async (file: string, options: SubmitOptions) => {
      const config = configFromOptions(options);
      const repo = REPO.exec(options.repo);
      if (!repo) throw new Error('--repo: must be OWNER/REPO');
      const text = readDocument(file);
      const receipt = await withMigratedDatabase(config, async (db) => {
        try {
          return await createServices(db).at(undefined).sbomUploads.uploadAsOperator(repo[1]!, repo[2]!, text, {
            manifest: options.manifest, ref: options.ref, sha: options.sha, correlator: options.correlator,
          }, commandActor());
        } catch (error) {
          if (error instanceof NotFoundError) throw new Error(`no repository ${options.repo}`);
          if (error instanceof ValidationError) throw new Error([error.message, ...error.errors.map((e) => `  ${e.field}: ${e.message ?? e.code}`)].join('\n'));
          throw error;
        }
      });
      const { summary, alerts } = receipt;
      output.out(`Recorded ${summary.recorded} packages of ${file === '-' ? 'the document' : file} (${receipt.format}: ${summary.total} components, ${summary.skipped.length} skipped, `
        + `${summary.unmatchable} no advisory can match) as snapshot ${receipt.id} of ${options.repo}, manifest "${receipt.manifest}": ${receipt.result}.`);
      for (const skipped of summary.skipped.slice(0, 10)) output.out(`  skipped ${skipped.name} (${skipped.path}): ${skipped.reason === 'subject' ? 'what the document describes' : 'no package URL'}`);
      if (receipt.result !== 'SUCCESS') output.out(receipt.message);
      output.out(`Alerts of ${options.repo}: ${alerts.open} open, ${alerts.dismissed} dismissed, ${alerts.fixed} fixed, ${alerts.auto_dismissed} auto-dismissed.`);
    });
}
