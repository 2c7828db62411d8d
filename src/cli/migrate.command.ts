import type { Command } from 'commander';
import { DATABASE_FLAG, DATABASE_HELP, configWith } from './database-option';
import { openDatabase } from '../database/connection';
import { migrateLatest } from '../database/migrate';
import { migrationSource } from '../../db/migrations';
import type { Output } from './output';

export function registerMigrate(program: Command, output: Output): void {
  program
    .command('migrate')
    .description('run pending database migrations and exit')
    .option(DATABASE_FLAG, DATABASE_HELP)
    .option('--force-unlock', 'first free the migration lock an instance killed while migrating left behind')
    .action(async (options: { database?: string; forceUnlock?: boolean }) => {
      const db = openDatabase(configWith(options).databaseUrl);
      try {
        if (options.forceUnlock) {
          await db.knex.migrate.forceFreeMigrationsLock({ migrationSource });
          output.out('Freed the migration lock.');
        }
        const ran = await migrateLatest(db);
        output.out(ran.length ? `Ran ${ran.length} migration(s):\n${ran.map((m) => `  ${m}`).join('\n')}` : 'Already up to date.');
      } finally {
        await db.knex.destroy();
      }
    });
}
