import { EventFeed } from '../../src/modules/live-events/event-feed';
import { EventFeedStore, type FeedEvent } from '../../src/modules/live-events/event-feed.store';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The live-event feed (src/modules/live-events) over a real database: a start the database
// refuses leaves no consumer behind, and the next consumer starts the feed.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.destroy());

const event = (action: string) => ({ event: 'dependency_bot_alert', action, repo_id: 1, org_id: 1, alert_id: 1, sender_id: null, created_at: '2026-12-06T00:00:00Z', payload: '{}' });

it('a start the database refuses adds no consumer; the next consumer starts the feed and gets what commits after it', async () => {
  const feed = new EventFeed({ db: db.knex, store: new EventFeedStore() }, { pollMs: 20 });
  await db.knex('events').insert(event('created'));
  // A real refusal: the table the feed starts from is not there.
  await db.knex.schema.renameTable('events', 'events_away');
  const lost: FeedEvent[] = [];
  await expect(feed.add(async (events) => { lost.push(...events); })).rejects.toThrow();
  await db.knex.schema.renameTable('events_away', 'events');
  const got: FeedEvent[] = [];
  const leave = await feed.add(async (events) => { got.push(...events); });
  await db.knex('events').insert(event('dismissed'));
  for (let i = 0; i < 200 && got.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(got.map((e) => e.action)).toEqual(['dismissed']);
  expect(lost).toEqual([]);
  leave();
  await feed.close();
});
