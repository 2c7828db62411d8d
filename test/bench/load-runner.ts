import fs from 'node:fs';
import autocannon = require('autocannon');
import { DistinctPages } from './distinct-pages';
import type { LoadResult, LoadSettings, RequestPlan } from './load-plan';

// The load generator, run as its own process (pinned to its own core): `load-runner.js SETTINGS.json`
// drives orgsec or a floor with autocannon and prints one LoadResult as JSON.

interface Counters { emptyPages: number; issued: number; writes: number; space: number }

const DISMISS = JSON.stringify({ state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'bench' });
const REOPEN = JSON.stringify({ state: 'open' });

/** autocannon's request list for a plan; requests share one counter, so no two connections send the same one. */
function requestsOf(plan: RequestPlan, counters: Counters): autocannon.Request[] {
  if (plan.kind === 'same') return [{ method: plan.method, path: plan.path, headers: plan.headers, ...(plan.body === undefined ? {} : { body: plan.body }) }];
  const pages = new DistinctPages(plan.org, plan.cursors, plan.repositories);
  counters.space = pages.size;
  const alerts = plan.kind === 'patch-mix' ? plan.alerts.map((a) => ({ ...a })) : [];
  const writeEvery = plan.kind === 'patch-mix' ? plan.writeEvery : 0;
  // A round starts where the last stopped (firstIndex moves on by the requests it issued, one in
  // writeEvery a PATCH), so it begins past the alerts the last round toggled: this process's
  // states are the world's.
  let nextAlert = writeEvery > 0 ? Math.floor(plan.firstIndex / writeEvery) : 0;
  const setupRequest = (request: autocannon.Request): autocannon.Request => {
    const index = counters.issued++;
    if (writeEvery > 0 && index % writeEvery === writeEvery - 1) {
      // Round-robin over many alerts: the same alert is never patched twice at once, and
      // its state is flipped here, so every PATCH is a valid transition (never a 409).
      const alert = alerts[nextAlert++ % alerts.length]!;
      const body = alert.state === 'open' ? DISMISS : REOPEN;
      alert.state = alert.state === 'open' ? 'dismissed' : 'open';
      counters.writes++;
      return { ...request, method: 'PATCH', path: `/repos/${alert.repository}/dependency-bot/alerts/${alert.number}`, headers: { ...plan.headers, 'content-type': 'application/json' }, body };
    }
    const pageIndex = writeEvery > 0 ? index - Math.floor(index / writeEvery) : index;
    return { ...request, method: 'GET', path: pages.path(plan.firstIndex + pageIndex), headers: plan.headers, body: '' };
  };
  const onResponse = (status: number, body: string) => {
    if (status === 200 && body.length <= 2 && body.startsWith('[')) counters.emptyPages++;
  };
  return [{ setupRequest, onResponse }];
}

async function main(): Promise<void> {
  const settings = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadSettings;
  const counters: Counters = { emptyPages: 0, issued: 0, writes: 0, space: Number.POSITIVE_INFINITY };
  // One request list for both runs: its alert states carry over from the warm-up.
  const requests = requestsOf(settings.plan, counters);
  if (settings.warmupSeconds > 0) {
    await autocannon({ url: settings.url, connections: settings.connections, duration: settings.warmupSeconds, requests });
    counters.emptyPages = 0;
    counters.writes = 0;
  }
  const result = await autocannon({ url: settings.url, connections: settings.connections, duration: settings.seconds, requests });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, Number((s as { count: number | string }).count)]));
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  const expected = settings.plan.kind === 'same' ? (statuses[String(settings.plan.expectStatus)] ?? 0) : result['2xx'];
  const out: LoadResult = {
    rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: total, statuses,
    unexpected: total - expected, errors: result.errors, timeouts: result.timeouts, emptyPages: counters.emptyPages,
    repeated: Math.max(0, counters.issued - counters.space), writes: counters.writes, issued: counters.issued,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load runner failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
