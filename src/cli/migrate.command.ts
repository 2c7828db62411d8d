import type { Command } from 'commander';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';
import { openDatabase } from '../database/connection';
import { migrateLatest } from '../database/migrate';
import { migrationSource } from '../../db/migrations';
import type { Output } from './output';

export function registerMigrate(program: Command, output: Output): void {
  program
    .command('migrate')
    .description('run pending database migrations and exit')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

Examples:
  $ orgsec migrate
  $ orgsec migrate --database postgres://orgsec@db:5432/orgsec
  $ orgsec migrate --force-unlock       # after an instance was killed while migrating`)
    .option('--force-unlock', 'first free the migration lock an instance killed while migrating left behind')
    .action(async (options: { database?: string; forceUnlock?: boolean }) => {
      const db = openDatabase(configFromOptions(options).databaseUrl);
      try {
        if (options.forceUnlock) {
          await db.knex.migrate.forceFreeMigrationsLock({ migrationSource });
          output.out('Freed the migration lock.');
        }
        const ran = await migrateLatest(db);
        output.out(ran.length ? `Ran ${ran.length} migration(s):\n${ran.map((m) => `  ${m}`).join('\n')}` : 'Already up to date.');
      } finally {
        await db.close();
      }
    });
}
