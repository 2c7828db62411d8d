import crypto from 'node:crypto';
import { CACHE_SHARES } from '../../src/cache/cache-budget';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { AL, ENTERPRISE, ORG, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// Memory set by settings (issue 35): every cache holds at most its share of CACHE_MB (the
// response cache RESPONSE_CACHE_MB), says so in /metrics, and answers as the uncached path
// does when its budget is far smaller than the world (evicting as it goes).

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(400, 41, advisories), advisories);
const TINY = 2 ** 20; // CACHE_MB=1: the alert caches hold about a hundred alerts each
const PAGES = [
  `/enterprises/${ENTERPRISE}/dependency-bot/alerts?per_page=100`,
  `/orgs/${ORG}/dependency-bot/alerts?per_page=100&sort=updated&direction=asc`,
  `/orgs/${ORG}/dependency-bot/alerts?per_page=50&state=open,dismissed&severity=high,critical`,
];

/** Every page of every list above, following Link: the bodies in order, the app's origin written ORIGIN (each listens on a port of its own). */
async function readAll(t: TestApp): Promise<string[]> {
  const bodies: string[] = [];
  for (const first of PAGES) {
    let url: string | undefined = first;
    while (url) {
      const res: { status: number; text: string; headers: Record<string, string> } = await t.http().get(url).set(bearer(AL.owner));
      expect(res.status).toBe(200);
      bodies.push(res.text.replaceAll(t.url, 'ORIGIN'));
      url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1]?.replace(/^https?:\/\/[^/]+/, '');
    }
  }
  // Compared by digest: a difference names the page without printing every body.
  return bodies.map((body) => `${body.length}:${crypto.createHash('sha256').update(body).digest('hex')}`);
}

/** orgsec_cache_bytes and orgsec_cache_limit_bytes by cache, from /metrics. */
async function cacheMetrics(t: TestApp): Promise<Map<string, { bytes: number; limit: number }>> {
  const text = (await t.http().get('/metrics')).text;
  const caches = new Map<string, { bytes: number; limit: number }>();
  for (const [, metric, cache, value] of text.matchAll(/^orgsec_cache_(bytes|limit_bytes)\{cache="([^"]+)"\} (\d+)$/gm)) {
    const entry = caches.get(cache!) ?? caches.set(cache!, { bytes: 0, limit: 0 }).get(cache!)!;
    entry[metric === 'bytes' ? 'bytes' : 'limit'] = Number(value);
  }
  return caches;
}

let tiny: TestApp;
let roomy: TestApp;
beforeAll(async () => {
  [tiny, roomy] = await Promise.all([createTestApp({ cacheBytes: TINY }), createTestApp()]);
  await Promise.all([tiny.load(world), roomy.load(world)]);
});
afterAll(async () => {
  await Promise.all([tiny.close(), roomy.close()]);
});

it('answers every page alike with a budget far smaller than the world, read twice (evicting), and with room to spare', async () => {
  const expected = await readAll(roomy);
  expect(expected.length).toBeGreaterThan(6);
  expect(await readAll(tiny)).toEqual(expected);
  expect(await readAll(tiny)).toEqual(expected);
  expect(await readAll(roomy)).toEqual(expected);
});

it('reports every cache in /metrics, each within its share of CACHE_MB, the shares adding up to it', async () => {
  await readAll(tiny);
  const caches = await cacheMetrics(tiny);
  expect([...caches.keys()].sort()).toEqual([...Object.keys(CACHE_SHARES), 'responses'].sort());
  for (const [name, share] of Object.entries(CACHE_SHARES)) {
    const { bytes, limit } = caches.get(name)!;
    expect(limit).toBe(Math.floor((TINY * share) / 100));
    expect(bytes).toBeLessThanOrEqual(limit);
  }
  const shared = Object.keys(CACHE_SHARES).reduce((sum, name) => sum + caches.get(name)!.limit, 0);
  expect(shared).toBeLessThanOrEqual(TINY);
  expect(shared).toBeGreaterThan(TINY - Object.keys(CACHE_SHARES).length);
  // Full: the pages read more alerts than the budget holds.
  expect(caches.get('alert json')!.bytes).toBeGreaterThan(caches.get('alert json')!.limit * 0.8);
  expect(caches.get('responses')).toEqual({ bytes: expect.any(Number), limit: 32 * 2 ** 20 });
  expect(caches.get('responses')!.bytes).toBeGreaterThan(0);
});

it('counts each alert it keeps at every byte it keeps alive: its own; what alerts share is kept once, by the caches of advisories, repositories and users', async () => {
  // An alert kept held its advisory's and repository's JSON after the caches that share them
  // let them go: counted as shared, 20 MB of alerts held 52 MB on the benchmark's world.
  // Now an alert keeps only its own bytes, and the shared ones are spliced in at each page.
  const fresh = await createTestApp();
  try {
    await fresh.load(world);
    const res = await fresh.http().get(`/orgs/${ORG}/dependency-bot/alerts?per_page=100`).set(bearer(AL.owner));
    expect(res.status).toBe(200);
    type Alert = { security_advisory: { ghsa_id: string }; security_vulnerability: unknown; repository: unknown; dismissed_by: unknown; assignees: unknown[] };
    const alerts = res.body as Alert[];
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    const sharedBytes = (alert: Alert) => [alert.security_advisory, alert.security_vulnerability, alert.repository, alert.dismissed_by, ...alert.assignees]
      .reduce<number>((sum, part) => sum + (part === null ? 0 : bytes(part)), 0);
    const own = alerts.reduce((sum, alert) => sum + bytes(alert) - sharedBytes(alert), 0);
    const caches = await cacheMetrics(fresh);
    expect(caches.get('alert json')!.bytes).toBeGreaterThanOrEqual(own);
    expect(caches.get('alert json')!.bytes).toBeLessThan(own + alerts.reduce((sum, alert) => sum + sharedBytes(alert), 0));
    const distinctAdvisories = new Map(alerts.map((alert) => [alert.security_advisory.ghsa_id, bytes(alert.security_advisory)]));
    expect(caches.get('advisory json')!.bytes).toBeGreaterThanOrEqual([...distinctAdvisories.values()].reduce((x, y) => x + y, 0));
  } finally {
    await fresh.close();
  }
});

it('holds, with room to spare, what the pages read', async () => {
  const caches = await cacheMetrics(roomy);
  for (const name of ['alert json', 'json fragments', 'advisory json', 'repositories', 'tokens', 'authorization decisions']) {
    expect(caches.get(name)!.bytes).toBeGreaterThan(0);
    expect(caches.get(name)!.bytes).toBeLessThan(caches.get(name)!.limit / 4);
  }
});
