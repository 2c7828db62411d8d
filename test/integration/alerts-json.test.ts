import { alertSchema, alertWithRepositorySchema } from '../../src/modules/dependency-alerts/alerts.responses';
import { alertJson, alertPageJson, freshFragments } from '../../src/modules/dependency-alerts/alerts.serializers';
import type { AlertView } from '../../src/modules/dependency-alerts/alerts.types';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { AL, ENTERPRISE, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// The REST alert JSON, as the routes write it (the serializer with cached fragments spliced
// in, whole alerts cached), for every alert of a varied world, with and without the
// repository, under two API bases: exactly JSON.stringify of the documented shape
// (alerts.responses.ts: every field, in its order), the same bytes fresh and from the caches.

const advisories = makeAdvisories();
const declared = makeAlerts(300, 23, advisories);
// Odd text that must be escaped as JSON.stringify does.
declared[0]!.manifest_path = 'dir with "quotes"/\\back\u2028slash\u0001.json';
Object.assign(declared[1]!, { state: 'dismissed', dismissed_at: '2026-03-05T12:00:00Z', dismissed_by: 'al-owner', dismissed_reason: 'inaccurate', dismissed_comment: 'emoji 🚀 and "quotes" </script>' });

let t: TestApp;
let views: AlertView[];
beforeAll(async () => {
  t = await createTestApp();
  await t.load(alertsWorld(declared, advisories));
  const reads = t.services.at(undefined);
  const principal = await reads.authenticator.authenticate(`Bearer ${AL.owner}`);
  const page = await reads.dependencyAlerts.listForEnterprise(principal, ENTERPRISE, { filters: {}, sort: 'created', direction: 'desc', perPage: 100 });
  views = page.items;
  let next = page.next;
  while (next) {
    const more = await reads.dependencyAlerts.listForEnterprise(principal, ENTERPRISE, { filters: {}, sort: 'created', direction: 'desc', perPage: 100, after: next });
    views.push(...more.items);
    next = more.next;
  }
});
afterAll(() => t.close());

it('covers every declared alert, dismissed ones and assignees among them', () => {
  expect(views).toHaveLength(declared.length);
  expect(views.some((v) => v.dismissedBy !== null && v.alert.dismissedComment !== null)).toBe(true);
  expect(views.some((v) => v.assignees.length > 1)).toBe(true);
  expect(views.some((v) => v.vulnerability === null || v.advisory.epssPercentage === null)).toBe(true);
});

it.each([
  ['http://127.0.0.1:3000', true], ['http://127.0.0.1:3000', false], ['https://orgsec.example/api/v3', true], ['https://orgsec.example/api/v3', false],
])('writes every alert as JSON.stringify of its documented shape, fresh and cached (base %s, repository %s)', (base, withRepository) => {
  const schema = withRepository ? alertWithRepositorySchema : alertSchema;
  const fresh = Buffer.concat(alertPageJson(alertJson(freshFragments), base, views, { withRepository })).toString('utf8');
  const documented = JSON.stringify((JSON.parse(fresh) as unknown[]).map((alert) => schema.parse(alert)));
  expect(fresh).toBe(documented);

  // The routes' writer (composition.ts): bound to no versions, afresh; to a request's, from the caches.
  const text = (versions?: { data: number; reference: number }) =>
    Buffer.concat(alertPageJson(t.services.at(versions).alertJson, base, views, { withRepository })).toString('utf8');
  expect(text()).toBe(documented);
  expect(text({ data: 1, reference: 1 })).toBe(documented); // fragments and alerts built
  expect(text({ data: 1, reference: 1 })).toBe(documented); // and reused
  expect(text({ data: 2, reference: 1 })).toBe(documented); // a new data version: alerts rebuilt around cached fragments
  expect(text({ data: 3, reference: 2 })).toBe(documented); // a new reference version: all rebuilt
});

it('writes an empty page as []', () => {
  expect(Buffer.concat(alertPageJson(t.services.at(undefined).alertJson, 'http://127.0.0.1:3000', [], { withRepository: true })).toString('utf8')).toBe('[]');
});
