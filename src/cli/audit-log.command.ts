import fs from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { createServices } from '../composition';
import { serializeAuditRecord } from '../modules/audit-log/audit-log.serializers';
import { parsePhrase } from '../modules/audit-log/audit-phrase';
import { withMigratedDatabase } from './database-option';
import type { Output } from './output';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';

export function registerAuditLog(program: Command, output: Output): void {
  const auditLog = program.command('audit-log').description('read the audit log');
  auditLog
    .command('export')
    .description('write every audit-log record the phrase matches to FILE as NDJSON, those of no organization too (a load, an import, a key rotation)')
    .argument('<file>', 'the file to write (must not exist), or - for standard output')
    .option('--phrase <phrase>', 'a search phrase, as the API\'s `phrase` (action:, actor:, user:, team:, repo:, org:, operation:, created:)')
    .option('--order <order>', 'asc (oldest first) or desc', 'asc')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

The API shows an organization's or an enterprise's log to its owners; this command is the
operator's: every record, one JSON object a line, as the API's NDJSON export writes them.

Examples:
  $ orgsec audit-log export audit.ndjson
  $ orgsec audit-log export - --phrase 'created:>=2026-11-01 -actor:dependency-bot[bot]' | jq .action`)
    .action(async (file: string, options: { phrase?: string; order: string; database?: string }) => {
      if (options.order !== 'asc' && options.order !== 'desc') throw new Error(`--order: must be asc or desc, not ${JSON.stringify(options.order)}`);
      const order = options.order;
      parsePhrase(options.phrase); // a bad phrase is refused before the file is made
      const sink = file === '-' ? process.stdout : fs.createWriteStream(file, { flags: 'wx' });
      if (sink !== process.stdout) await once(sink, 'open');
      let written = 0;
      try {
        await withMigratedDatabase(configFromOptions(options), async (db) => {
          for await (const batch of createServices(db).auditLogRecords(options.phrase, order)) {
            if (!sink.write(batch.map((record) => `${JSON.stringify(serializeAuditRecord(record))}\n`).join(''))) await once(sink, 'drain');
            written += batch.length;
          }
        });
      } finally {
        if (sink !== process.stdout) await new Promise<void>((resolve) => sink.end(() => resolve()));
      }
      if (file !== '-') output.out(`Exported ${written.toLocaleString('en-US')} audit-log records to ${file}.`);
    });
}
