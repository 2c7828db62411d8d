import { ALERT_HISTORY_LIMIT, readAlertHistory } from '../../src/modules/dependency-alerts/alert-history';
import { planProblems, statementsOf } from '../helpers/query-plans';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// An alert page's history (issue 40) reads the alert's latest events by (alert_id, id): its
// statements scan no table and sort nothing, however many events other alerts have.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  // Events of two alerts; the one read has more than a page's worth, so its total is counted too.
  const rows = Array.from({ length: ALERT_HISTORY_LIMIT + 20 }, (_, i) => ({
    event: 'dependency_bot_alert', action: i % 2 === 0 ? 'dismissed' : 'reopened', repo_id: 1, org_id: null, alert_id: i < ALERT_HISTORY_LIMIT + 10 ? 7 : 8,
    sender_id: null, created_at: `2026-12-06T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
    payload: JSON.stringify({ alert: { number: 1, dismissed_reason: 'tolerable_risk', dismissed_comment: `flip ${i}`, assignees: [] } }),
  }));
  await db.knex.batchInsert('events', rows, 50);
});
afterAll(() => db.destroy());

it('reads the latest changes of one alert, oldest first, with their total, from the index', async () => {
  let history: Awaited<ReturnType<typeof readAlertHistory>> | undefined;
  const statements = await statementsOf(db.knex, async () => { history = await readAlertHistory(db.knex, 7); });
  expect(history!.total).toBe(ALERT_HISTORY_LIMIT + 10);
  expect(history!.entries).toHaveLength(ALERT_HISTORY_LIMIT);
  expect(history!.entries[0]).toEqual({ action: 'dismissed', at: '2026-12-06T10:00:10Z', sender: null, dismissedReason: 'tolerable_risk', dismissedComment: 'flip 10', assignees: [] });
  expect(history!.entries.at(-1)!.dismissedComment).toBe(`flip ${ALERT_HISTORY_LIMIT + 9}`);
  expect(statements).toHaveLength(2);
  for (const statement of statements) expect({ sql: statement.sql, problems: await planProblems(db, statement) }).toEqual({ sql: statement.sql, problems: [] });
});
