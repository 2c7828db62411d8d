import fs from 'node:fs';
import path from 'node:path';
import { createServices } from '../../src/composition';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { generateWorld, type WorldSize } from './generate-world';

/** The public advisory database's order of size: 20,000 advisories beside the alerts (issue 25). */
export const worldSize = (alerts: number): WorldSize => ({ organizations: 10, repositoriesPerOrganization: 100, alerts, advisories: 20_000 });

/** Whether `db` holds the world of `alerts` alerts this generator makes (a last run's, to reuse). */
export async function holdsWorld(db: Database, alerts: number): Promise<boolean> {
  const count = (table: string) => db.knex(table).count({ n: '*' }).first().then((row) => Number(row?.n ?? 0), () => -1);
  return (await count('dependency_alerts')) === alerts && (await count('advisories')) === worldSize(alerts).advisories;
}

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

/** The SQLite world: the last run's file when `reuse` is set and it holds this world, else a fresh load. */
/** Removes a SQLite database file and its write-ahead files. */
export function removeSqliteFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}

/** A fresh copy of the world's database for one scenario, named `name` in `workDir` (the world is left as it is). */
export function copyOfWorld(worldFile: string, workDir: string, name: string): string {
  const file = path.join(workDir, name);
  removeSqliteFile(file);
  fs.copyFileSync(worldFile, file);
  return file;
}

export async function prepareSqliteWorld(file: string, alerts: number, reuse: boolean): Promise<LoadedWorld> {
  if (reuse && fs.existsSync(file)) {
    const db = openDatabase(file);
    try {
      await migrateLatest(db);
      if (await holdsWorld(db, alerts)) return { reused: true };
    } finally {
      await db.close();
    }
  }
  removeSqliteFile(file);
  const db = openDatabase(file);
  try {
    return { reused: false, loadSeconds: await loadWorld(db, alerts) };
  } finally {
    await db.close();
  }
}
