import type { Database } from '../../src/database/connection';
import { encodeCursor } from '../../src/database/keyset';
import { alertListName } from '../../src/modules/dependency-alerts/alerts.store';
import type { MiddleCursors } from './distinct-pages';
import type { AlertRef } from './load-plan';

// What the scenarios need to know of the loaded world, read from the database before the
// server starts: real cursors (the ones the list's Link header would carry) and alert states.

export interface WorldFacts {
  orgAlerts: number;
  middleCursors: MiddleCursors;
  /** Cursor of the row just before page `deepPage` at `deepPerPage` per page. */
  deepCursor: string;
  deepPage: number;
  /** 30 when the organization is big enough for page `deepPage` at 30, else as many as fit. */
  deepPerPage: number;
  patchAlerts: AlertRef[];
  /** The organization's repositories that hold alerts (names), for distinct repository pages. */
  repositories: string[];
}

const MIDDLE_CURSORS = 16;
const PATCH_ALERTS = 3000;

export async function readWorldFacts({ knex }: Database, org: string, deepPage: number): Promise<WorldFacts> {
  const owner = await knex('accounts').where('login', org).first('id');
  if (!owner) throw new Error(`${org} is not in the database`);
  const alerts = () => knex('dependency_alerts').where('owner_id', owner.id);
  const orgAlerts = Number((await alerts().count({ n: '*' }).first())!.n);
  const newestFirst = () => alerts().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  const cursorAt = async (offset: number, direction: 'asc' | 'desc') => {
    const row = await newestFirst().offset(offset).first('created_at', 'id');
    return encodeCursor(alertListName('created', direction), [row.created_at, Number(row.id)]);
  };
  const middle = Array.from({ length: MIDDLE_CURSORS }, (_, k) => Math.floor(orgAlerts / 3 + (k * orgAlerts) / 3 / MIDDLE_CURSORS));
  const deepPerPage = Math.max(1, Math.min(30, Math.floor(orgAlerts / deepPage)));
  const rows = await knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').where('a.owner_id', owner.id).whereIn('a.state', ['open', 'dismissed'])
    .orderBy('a.id').limit(PATCH_ALERTS).select('r.name', 'a.number', 'a.state');
  return {
    orgAlerts,
    middleCursors: {
      createdDesc: await Promise.all(middle.map((offset) => cursorAt(offset, 'desc'))),
      createdAsc: await Promise.all(middle.map((offset) => cursorAt(offset, 'asc'))),
    },
    deepCursor: await cursorAt(Math.max(0, (deepPage - 1) * deepPerPage - 1), 'desc'),
    deepPage,
    deepPerPage,
    repositories: (await knex('repositories as r').where('r.owner_id', owner.id).whereExists(knex('dependency_alerts as a').whereRaw('a.repo_id = r.id').select(knex.raw('1')))
      .orderBy('r.id').select('r.name')).map((r: { name: string }) => r.name),
    patchAlerts: rows.map((r: { name: string; number: number; state: 'open' | 'dismissed' }) => ({ repository: `${org}/${r.name}`, number: Number(r.number), state: r.state })),
  };
}
