import { AlertJsonWriter } from '../../src/modules/dependency-alerts/alerts.json';
import { serializeAlert } from '../../src/modules/dependency-alerts/alerts.serializers';
import type { AlertView } from '../../src/modules/dependency-alerts/alerts.service';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { AL, ENTERPRISE, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// The alert JSON writer (direct text from cached fragments) against the object serializer
// it replaces on the REST lists: the same bytes for every alert of a varied world, with and
// without the repository, under two API bases, built fresh and from fragments.

const advisories = makeAdvisories();
const declared = makeAlerts(300, 23, advisories);
// Odd text the writer must escape as JSON.stringify does.
declared[0]!.manifest_path = 'dir with "quotes"/\\back\u2028slash\u0001.json';
Object.assign(declared[1]!, { state: 'dismissed', dismissed_at: '2026-03-05T12:00:00Z', dismissed_by: 'al-owner', dismissed_reason: 'inaccurate', dismissed_comment: 'emoji 🚀 and "quotes" </script>' });

let t: TestApp;
let views: AlertView[];
beforeAll(async () => {
  t = await createTestApp();
  await t.load(alertsWorld(declared, advisories));
  const principal = await t.services.authenticator.authenticate(`Bearer ${AL.owner}`);
  const page = await t.services.dependencyAlerts.listForEnterprise(principal, ENTERPRISE, { filters: {}, sort: 'created', direction: 'desc', perPage: 100 });
  views = page.items;
  let next = page.next;
  while (next) {
    const more = await t.services.dependencyAlerts.listForEnterprise(principal, ENTERPRISE, { filters: {}, sort: 'created', direction: 'desc', perPage: 100, after: next });
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
])('writes every alert as JSON.stringify(serializeAlert(…)) does (base %s, repository %s)', (base, withRepository) => {
  const writer = new AlertJsonWriter();
  const text = (...args: Parameters<AlertJsonWriter['page']>) => Buffer.concat(writer.page(...args)).toString('utf8');
  const expected = JSON.stringify(views.map((view) => serializeAlert(base, view, { withRepository })));
  expect(text(base, views, { withRepository })).toBe(expected);
  expect(text(base, views, { withRepository, reference: 1 })).toBe(expected); // fragments built
  expect(text(base, views, { withRepository, reference: 1 })).toBe(expected); // fragments reused
  expect(text(base, views, { withRepository, reference: 2 })).toBe(expected); // a new reference version: rebuilt
  expect(text(base, views, { withRepository, reference: 2, data: 5 })).toBe(expected); // whole alerts kept
  expect(text(base, views, { withRepository, reference: 2, data: 5 })).toBe(expected); // and reused
});
