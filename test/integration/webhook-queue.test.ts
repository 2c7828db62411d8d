import { createServices } from '../../src/composition';
import { DeliveryStore, type ClaimedDelivery } from '../../src/modules/webhook-delivery/delivery.store';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The delivery queue's store on each database: claims in order, one holder at a time, the
// retry window and the retention sweep. (Delivery end to end: webhook-delivery.test.ts.)

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 27, 12);
const store = new DeliveryStore();
let db: TestDatabase;
let hookId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  await createServices(db).world.load({ users: [{ login: 'queue-owner' }], organizations: [{ login: 'queue-org', owners: ['queue-owner'] }] });
  const org = await db.knex('accounts').where('login', 'queue-org').first('id');
  const [row] = await db.knex('webhooks').insert({
    org_id: org.id, repo_id: null, name: 'web', active: true, events: '["*"]', url: 'https://hooks.example.com/orgsec', content_type: 'json',
    secret: null, insecure_ssl: '0', created_at: '2026-11-27T12:00:00Z', updated_at: '2026-11-27T12:00:00Z',
  }).returning('id');
  hookId = Number(row.id);
});

afterAll(async () => {
  await db.destroy();
});

beforeEach(async () => {
  await db.knex('webhook_delivery_attempts').delete();
  await db.knex('webhook_deliveries').delete();
});

async function queue(count: number, fields: Record<string, unknown> = {}): Promise<number[]> {
  const rows = Array.from({ length: count }, () => ({
    hook_id: hookId, event_id: null, event: 'ping', action: null, repo_id: null, payload: '{"zen":"Design for failure."}', state: 'pending',
    attempts: 0, next_attempt_at: NOW, created_at: '2026-11-27T12:00:00Z', created_ms: NOW, ...fields,
  }));
  const inserted: Array<{ id: number | string }> = await db.knex('webhook_deliveries').insert(rows).returning('id');
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}

const record = { deliveredAt: '2026-11-27T12:00:00Z', durationSeconds: 0.01, status: 'OK', statusCode: 200, url: 'https://hooks.example.com/orgsec', requestHeaders: {}, requestBody: '{}', responseHeaders: {}, responseBody: '' };

describe('claims', () => {
  it('take a hook\'s rows in id order as one batch, each with its own guid; nothing more while it is held', async () => {
    const ids = await queue(3);
    const [batch] = await store.transaction(db.knex, (trx) => store.claim(trx, 5, 10, NOW, 10_000));
    expect(batch!.map((d) => d.id)).toEqual(ids);
    expect(new Set(batch!.map((d) => d.guid)).size).toBe(3);
    expect(await store.transaction(db.knex, (trx) => store.claim(trx, 5, 10, NOW + 1, 10_000))).toEqual([]);
    // Its lease gone by (an instance died), the rows are claimed again, with the same guids.
    const [again] = await store.transaction(db.knex, (trx) => store.claim(trx, 5, 10, NOW + 20_000, 10_000));
    expect(again!.map((d) => d.guid)).toEqual(batch!.map((d) => d.guid));
  });

  it('a failed head holds back the rows after it until its retry is due', async () => {
    await queue(3);
    const [batch] = await store.transaction(db.knex, (trx) => store.claim(trx, 5, 10, NOW, 10_000));
    const [first, second, third] = batch as [ClaimedDelivery, ClaimedDelivery, ClaimedDelivery];
    await store.transaction(db.knex, async (trx) => {
      await store.finish(trx, [
        { delivery: first, record, outcome: { state: 'delivered' } },
        { delivery: second, record: { ...record, status: 'Invalid HTTP Response: 500', statusCode: 500 }, outcome: { state: 'pending', nextAttemptAt: NOW + 5_000 } },
      ]);
      await store.release(trx, [third]);
    });
    expect(await store.transaction(db.knex, (trx) => store.claim(trx, 5, 10, NOW + 1_000, 10_000))).toEqual([]);
    const [retry] = await store.transaction(db.knex, (trx) => store.claim(trx, 5, 10, NOW + 5_000, 10_000));
    expect(retry!.map((d) => [d.id, d.attempts, d.guid])).toEqual([[second.id, 1, second.guid], [third.id, 0, third.guid]]);
    const attempts = await db.knex('webhook_delivery_attempts').orderBy('id').select('delivery_id', 'status');
    expect(attempts.map((a: { delivery_id: number | string; status: string }) => [Number(a.delivery_id), a.status])).toEqual([[first.id, 'OK'], [second.id, 'Invalid HTTP Response: 500']]);
  });
});

describe('the sweep', () => {
  it('fails pending rows past 24 hours that nobody holds, and deletes ended deliveries older than 7 days with their attempts', async () => {
    const [oldDelivered] = await queue(1, { state: 'delivered', created_ms: NOW - 8 * DAY });
    const [recentDelivered] = await queue(1, { state: 'delivered', created_ms: NOW - 6 * DAY });
    const [expired] = await queue(1, { created_ms: NOW - 25 * 60 * 60 * 1000 });
    const [held] = await queue(1, { created_ms: NOW - 25 * 60 * 60 * 1000, claimed_until: NOW + 5_000 });
    await db.knex('webhook_delivery_attempts').insert([oldDelivered, recentDelivered].map((id) => ({
      delivery_id: id, hook_id: hookId, guid: '5f0c2a7e-3b1d-4c8e-9a46-1d2e3f405162', redelivery: false, delivered_at: '2026-11-20T12:00:00Z', duration: 0.02,
      status: 'OK', status_code: 200, event: 'ping', action: null, repo_id: null, url: 'https://hooks.example.com/orgsec', request_headers: '{}', request_body: '{}', response_headers: '{}', response_body: '',
    })));
    expect(await store.sweep(db.knex, NOW, NOW - DAY, NOW - 7 * DAY, 100)).toBe(1);
    const states = await db.knex('webhook_deliveries').orderBy('id').select('id', 'state');
    expect(states.map((r: { id: number | string; state: string }) => [Number(r.id), r.state])).toEqual([[recentDelivered, 'delivered'], [expired, 'failed'], [held, 'pending']]);
    expect((await db.knex('webhook_delivery_attempts').select('delivery_id')).map((r: { delivery_id: number | string }) => Number(r.delivery_id))).toEqual([recentDelivered]);
  });
});
