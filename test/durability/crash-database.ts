import { createServices } from '../../src/composition';
import { openDatabase } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { CUSTOM_ROLES, crashWorld } from './crash-world';

/** Migrates the database and loads the crash world; answers each custom role's id by name. */
export async function prepareCrashDatabase(databaseUrl: string): Promise<Map<string, number>> {
  const database = openDatabase(databaseUrl, { poolMax: 2 });
  try {
    await migrateLatest(database);
    await createServices(database, { rateLimits: false }).world.load(crashWorld());
    const roles: Array<{ id: number; name: string }> = await database.knex('organization_roles').whereIn('name', CUSTOM_ROLES).select('id', 'name');
    return new Map(CUSTOM_ROLES.map((name) => [name, Number(roles.find((r) => r.name === name)!.id)]));
  } finally {
    await database.close();
  }
}
