import { EventFeed } from '../../src/modules/live-events/event-feed';
import { EventFeedStore, type FeedEvent } from '../../src/modules/live-events/event-feed.store';
import { migrateLatest } from '../../src/database/migrate';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The live-event feed (src/modules/live-events) over a real database: a start the database
// refuses leaves no consumer behind, and the next consumer starts the feed.

let db: TestDatabase;
beforeAll(async () => {
  // Not migrated yet: the feed's first start meets a database without its events table.
  db = await createTestDatabase({ migrate: false });
});
afterAll(() => db.destroy());

const event = (action: string) => ({ event: 'dependency_bot_alert', action, repo_id: 1, org_id: 1, alert_id: 1, sender_id: null, created_at: '2026-12-06T00:00:00Z', payload: '{}' });

it('a start the database refuses adds no consumer; the next consumer starts the feed and gets what commits after it', async () => {
  const feed = new EventFeed({ db: db.knex, store: new EventFeedStore() }, { pollMs: 20 });
  // A real refusal: the table the feed starts from is not there yet.
  const lost: FeedEvent[] = [];
  // (The driver's error may come from another realm than jest's: read as text, not by toThrow.)
  const refused = await feed.add(async (events) => { lost.push(...events); }).then(() => 'added', (error: unknown) => String(error));
  expect(refused).toMatch(/events/);
  await migrateLatest(db);
  await db.knex('events').insert(event('created'));
  const got: FeedEvent[] = [];
  const leave = await feed.add(async (events) => { got.push(...events); });
  await db.knex('events').insert(event('dismissed'));
  for (let i = 0; i < 200 && got.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(got.map((e) => e.action)).toEqual(['dismissed']);
  expect(lost).toEqual([]);
  leave();
  await feed.close();
});
