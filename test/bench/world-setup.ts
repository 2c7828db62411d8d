import fs from 'node:fs';
import { createServices } from '../../src/composition';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { generateWorld, type WorldSize } from './generate-world';

export const worldSize = (alerts: number): WorldSize => ({ organizations: 10, repositoriesPerOrganization: 100, alerts, advisories: 200 });

export interface LoadedWorld {
  reused: boolean;
  /** Seconds the in-process world load took; absent when the last run's database was reused. */
  loadSeconds?: number;
}

/** Loads the bench world with the world loader, in process, into a migrated database. */
export async function loadWorld(db: Database, alerts: number): Promise<number> {
  await migrateLatest(db);
  const world = generateWorld(worldSize(alerts));
  const started = Date.now();
  await createServices(db).world.load(world, { onProgress: (m) => process.stderr.write(`\r  loading ${m}   `) });
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(`\n  loaded ${alerts} alerts in ${seconds.toFixed(1)} s\n`);
  return seconds;
}

/** The SQLite world: the last run's file when `reuse` is set and it exists, else a fresh load. */
export async function prepareSqliteWorld(file: string, alerts: number, reuse: boolean): Promise<LoadedWorld> {
  if (reuse && fs.existsSync(file)) {
    const db = openDatabase(file);
    await migrateLatest(db);
    await db.close();
    return { reused: true };
  }
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const db = openDatabase(file);
  try {
    return { reused: false, loadSeconds: await loadWorld(db, alerts) };
  } finally {
    await db.close();
  }
}
