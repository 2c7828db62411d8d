import type { Knex } from 'knex';

// dependency_alerts.version moves with every change of an alert row and of its assignees,
// whoever writes it (a service, the world loader, hand-written SQL): caches of alert rows,
// assignee lists and alert JSON are kept per alert version (src/cache/cached-at-row-versions.ts),
// so a write to one alert leaves every other alert's cached answers in place. Ids are never
// reused (AUTOINCREMENT on SQLite, a sequence on PostgreSQL), so (id, version) names one state.
// - An update that leaves version as it was gets it moved by one; one that moves it itself
//   (every service does) is left alone.
// - Adding, removing or changing an assignee moves the alert's version.

const PG_UP = [
  `CREATE FUNCTION dependency_alerts_version_move() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN IF NEW.version = OLD.version THEN NEW.version := OLD.version + 1; END IF; RETURN NEW; END $$`,
  `CREATE TRIGGER dependency_alerts_version_move BEFORE UPDATE ON dependency_alerts
   FOR EACH ROW EXECUTE FUNCTION dependency_alerts_version_move()`,
  // Statement-level with the rows written: one UPDATE however many assignees a statement writes.
  `CREATE FUNCTION dependency_alert_assignees_version_move() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN UPDATE dependency_alerts SET version = version + 1 WHERE id IN (SELECT alert_id FROM changed); RETURN NULL; END $$`,
  `CREATE TRIGGER dependency_alert_assignees_version_insert AFTER INSERT ON dependency_alert_assignees
   REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION dependency_alert_assignees_version_move()`,
  `CREATE TRIGGER dependency_alert_assignees_version_delete AFTER DELETE ON dependency_alert_assignees
   REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION dependency_alert_assignees_version_move()`,
  // An assignee row moved by hand: both alerts change.
  `CREATE FUNCTION dependency_alert_assignees_version_move_row() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN UPDATE dependency_alerts SET version = version + 1 WHERE id IN (OLD.alert_id, NEW.alert_id); RETURN NULL; END $$`,
  `CREATE TRIGGER dependency_alert_assignees_version_update AFTER UPDATE ON dependency_alert_assignees
   FOR EACH ROW EXECUTE FUNCTION dependency_alert_assignees_version_move_row()`,
];

const PG_DOWN = [
  'DROP TRIGGER IF EXISTS dependency_alert_assignees_version_update ON dependency_alert_assignees',
  'DROP TRIGGER IF EXISTS dependency_alert_assignees_version_delete ON dependency_alert_assignees',
  'DROP TRIGGER IF EXISTS dependency_alert_assignees_version_insert ON dependency_alert_assignees',
  'DROP TRIGGER IF EXISTS dependency_alerts_version_move ON dependency_alerts',
  'DROP FUNCTION IF EXISTS dependency_alert_assignees_version_move_row()',
  'DROP FUNCTION IF EXISTS dependency_alert_assignees_version_move()',
  'DROP FUNCTION IF EXISTS dependency_alerts_version_move()',
];

// SQLite: row-level only, and a trigger cannot assign NEW, so the row is updated again;
// recursive_triggers is off (its default), so that UPDATE does not fire the trigger again.
const SQLITE_UP = [
  `CREATE TRIGGER dependency_alerts_version_move AFTER UPDATE ON dependency_alerts
   FOR EACH ROW WHEN NEW.version = OLD.version BEGIN UPDATE dependency_alerts SET version = OLD.version + 1 WHERE id = NEW.id; END`,
  `CREATE TRIGGER dependency_alert_assignees_version_insert AFTER INSERT ON dependency_alert_assignees
   BEGIN UPDATE dependency_alerts SET version = version + 1 WHERE id = NEW.alert_id; END`,
  `CREATE TRIGGER dependency_alert_assignees_version_delete AFTER DELETE ON dependency_alert_assignees
   BEGIN UPDATE dependency_alerts SET version = version + 1 WHERE id = OLD.alert_id; END`,
  `CREATE TRIGGER dependency_alert_assignees_version_update AFTER UPDATE ON dependency_alert_assignees
   BEGIN UPDATE dependency_alerts SET version = version + 1 WHERE id IN (OLD.alert_id, NEW.alert_id); END`,
];

const SQLITE_DOWN = [
  'DROP TRIGGER IF EXISTS dependency_alert_assignees_version_update',
  'DROP TRIGGER IF EXISTS dependency_alert_assignees_version_delete',
  'DROP TRIGGER IF EXISTS dependency_alert_assignees_version_insert',
  'DROP TRIGGER IF EXISTS dependency_alerts_version_move',
];

const isPg = (knex: Knex) => knex.client.config.client === 'pg';

export async function up(knex: Knex): Promise<void> {
  for (const statement of isPg(knex) ? PG_UP : SQLITE_UP) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of isPg(knex) ? PG_DOWN : SQLITE_DOWN) await knex.raw(statement);
}
