import type { Knex } from 'knex';
import { REPO } from './crash-world';

/** An alert's row and its assignee rows, exactly as stored: equal snapshots mean nothing changed. */
export async function alertRows(knex: Knex, number: number): Promise<{ alert: Record<string, unknown>; assignees: unknown[] }> {
  const alert = await knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').where({ 'r.name': REPO, 'a.number': number }).first('a.*');
  const assignees = await knex('dependency_alert_assignees').where('alert_id', alert.id).orderBy('user_id').select('*');
  return { alert, assignees };
}
