import type { Command } from 'commander';
import { DATABASE_FLAG, DATABASE_HELP, configWith } from './database-option';
import { openDatabase } from '../database/connection';
import { migrateLatest } from '../database/migrate';
import type { Output } from './output';

export function registerMigrate(program: Command, output: Output): void {
  program
    .command('migrate')
    .description('run pending database migrations and exit')
    .option(DATABASE_FLAG, DATABASE_HELP)
    .action(async (options: { database?: string }) => {
      const db = openDatabase(configWith(options).databaseUrl);
      try {
        const ran = await migrateLatest(db);
        output.out(ran.length ? `Ran ${ran.length} migration(s):\n${ran.map((m) => `  ${m}`).join('\n')}` : 'Already up to date.');
      } finally {
        await db.knex.destroy();
      }
    });
}
