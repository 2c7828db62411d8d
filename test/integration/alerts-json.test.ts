import { AccountsStore } from '../../src/modules/accounts/accounts.store';
import { AdvisoryLookupStore } from '../../src/modules/advisories/advisories.lookup-store';
import { ADVISORY_ALERT_JSON_FORMAT } from '../../src/modules/advisories/advisory-alert-json';
import { alertSchema, alertWithRepositorySchema } from '../../src/modules/dependency-alerts/alerts.responses';
import { alertJson, alertPageJson, freshFragments, type AlertJson } from '../../src/modules/dependency-alerts/alerts.serializers';
import { storeReferences, type AlertShape } from '../../src/modules/dependency-alerts/alerts.service';
import { AlertsStore } from '../../src/modules/dependency-alerts/alerts.store';
import type { AlertRecord, AlertView } from '../../src/modules/dependency-alerts/alerts.types';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { AL, ENTERPRISE, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// The REST alert JSON, as the routes write it (the serializer around the advisories' stored
// JSON and cached account fragments, whole alerts cached), for every alert of a varied world,
// with and without the repository, under two API bases: exactly JSON.stringify of the
// documented shape (alerts.responses.ts: every field, in its order), the same bytes fresh,
// from the caches, and from the advisories' rows when their stored JSON is stale.

const advisories = makeAdvisories();
const declared = makeAlerts(300, 23, advisories);
// Odd text that must be escaped as JSON.stringify does.
declared[0]!.manifest_path = 'dir with "quotes"/\\back\u2028slash\u0001.json';
Object.assign(declared[1]!, { state: 'dismissed', dismissed_at: '2026-03-05T12:00:00Z', dismissed_by: 'al-owner', dismissed_reason: 'inaccurate', dismissed_comment: 'emoji 🚀 and "quotes" </script>' });

const advisoryStore = new AdvisoryLookupStore();
const alertStore = new AlertsStore({ advisories: advisoryStore });
const references = storeReferences({ alerts: alertStore, advisories: advisoryStore, accounts: new AccountsStore() });
const asRecords: AlertShape<AlertRecord> = (db, keys) => alertStore.rowsAt(db, keys);
const fresh = () => alertJson(alertStore, references, freshFragments);

let t: TestApp;
let views: AlertView[];
let records: AlertRecord[];
beforeAll(async () => {
  t = await createTestApp();
  await t.load(alertsWorld(declared, advisories));
  const reads = t.services.at(undefined);
  const principal = await reads.authenticator.authenticate(`Bearer ${AL.owner}`);
  const all = async <T>(shape: AlertShape<T>) => {
    const items: T[] = [];
    let after: string | undefined;
    do {
      const page = await reads.dependencyAlerts.listForEnterprise(principal, ENTERPRISE, { filters: {}, sort: 'created', direction: 'desc', perPage: 100, ...(after ? { after } : {}) }, shape);
      items.push(...page.items);
      after = page.next;
    } while (after);
    return items;
  };
  views = await all(reads.dependencyAlerts.views);
  records = await all(asRecords);
});
afterAll(() => t.close());

const pageText = async (json: AlertJson, base: string, withRepository: boolean) =>
  Buffer.concat(alertPageJson(await json(t.db.knex, base, records, { withRepository }))).toString('utf8');

it('covers every declared alert, dismissed ones and assignees among them', () => {
  expect(views).toHaveLength(declared.length);
  expect(records.map((r) => r.id)).toEqual(views.map((v) => v.alert.id));
  expect(views.some((v) => v.dismissedBy !== null && v.alert.dismissedComment !== null)).toBe(true);
  expect(views.some((v) => v.assignees.length > 1)).toBe(true);
  expect(views.some((v) => v.vulnerability === null || v.advisory.epssPercentage === null)).toBe(true);
});

it('keeps every advisory\'s JSON stored, in the current format, once the world is loaded', async () => {
  const rows = await t.db.knex('advisories').select('alert_json_format');
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => Number(r.alert_json_format) === ADVISORY_ALERT_JSON_FORMAT)).toBe(true);
});

it.each([
  ['http://127.0.0.1:3000', true], ['http://127.0.0.1:3000', false], ['https://orgsec.example/api/v3', true], ['https://orgsec.example/api/v3', false],
])('writes every alert as JSON.stringify of its documented shape: stored, rebuilt from rows, cached (base %s, repository %s)', async (base, withRepository) => {
  const schema = withRepository ? alertWithRepositorySchema : alertSchema;
  const built = await pageText(fresh(), base, withRepository);
  const documented = JSON.stringify((JSON.parse(built) as unknown[]).map((alert) => schema.parse(alert)));
  expect(built).toBe(documented);

  // The same bytes from the advisories' rows (the stored copies marked stale), then stored again.
  await t.db.knex('advisories').update({ alert_json_format: null });
  expect(await pageText(fresh(), base, withRepository)).toBe(documented);
  expect(await t.services.advisoryAlertJson.writeStale(t.db.knex)).toBe(advisories.length);

  // The routes' writer (composition/index.ts): bound to no versions, afresh; to a request's, from the caches.
  const text = (versions?: { data: number; reference: number }) => pageText(t.services.at(versions).alertJson, base, withRepository);
  expect(await text()).toBe(documented);
  expect(await text({ data: 1, reference: 1 })).toBe(documented); // fragments and alerts built
  expect(await text({ data: 1, reference: 1 })).toBe(documented); // and reused
  expect(await text({ data: 2, reference: 1 })).toBe(documented); // a new data version: alerts kept (their versions did not move)
  expect(await text({ data: 3, reference: 2 })).toBe(documented); // a new reference version: all rebuilt
});

it('writes an empty page as []', async () => {
  expect(Buffer.concat(alertPageJson(await t.services.at(undefined).alertJson(t.db.knex, 'http://127.0.0.1:3000', [], { withRepository: true }))).toString('utf8')).toBe('[]');
});

it('never shows a stored copy older than its rows: any write to an advisory or its vulnerabilities marks it stale', async () => {
  const advisoryId = records[0]!.advisoryId;
  const json = fresh();
  const shown = async () => JSON.parse(Buffer.concat((await json(t.db.knex, '', [records[0]!], { withRepository: false }))[0]!.parts).toString('utf8'));
  const formatOf = async () => (await t.db.knex('advisories').where('id', advisoryId).first('alert_json_format')).alert_json_format;

  await t.db.knex('advisories').where('id', advisoryId).update({ summary: 'Changed by hand' });
  expect(await formatOf()).toBeNull();
  expect((await shown()).security_advisory.summary).toBe('Changed by hand');
  await t.services.advisoryAlertJson.writeStale(t.db.knex);
  expect(Number(await formatOf())).toBe(ADVISORY_ALERT_JSON_FORMAT);
  expect((await shown()).security_advisory.summary).toBe('Changed by hand');

  const vulnerability = await t.db.knex('advisory_vulnerabilities').where('advisory_id', advisoryId).orderBy('id').first('id');
  await t.db.knex('advisory_vulnerabilities').where('id', vulnerability.id).update({ vulnerable_version_range: '< 9.9.9' });
  expect(await formatOf()).toBeNull();
  expect((await shown()).security_advisory.vulnerabilities[0].vulnerable_version_range).toBe('< 9.9.9');
  await t.services.advisoryAlertJson.writeStale(t.db.knex);
  expect((await shown()).security_advisory.vulnerabilities[0].vulnerable_version_range).toBe('< 9.9.9');
});

it('leaves out an alert deleted after its page was listed, cached or not, and keeps the order of the rest', async () => {
  const keys = [records[2]!, { id: 2 ** 31 - 1, version: 1 }, records[1]!];
  for (const json of [fresh(), t.services.at({ data: 5, reference: 5 }).alertJson, t.services.at({ data: 5, reference: 5 }).alertJson]) {
    const alerts = await json(t.db.knex, '', keys, { withRepository: false });
    expect(alerts.map((a) => a.id)).toEqual([records[2]!.id, records[1]!.id]);
  }
});
