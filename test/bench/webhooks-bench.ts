import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../../src/database/connection';
import { drive } from './drive';
import { BENCH_TOKEN, BIG_ORG } from './generate-world';
import type { LoadResult } from './load-plan';
import { median, percentile, sleep } from './measure';
import { patchAlert } from './alert-changes';
import { startOrgsec } from './orgsec-server';
import { readWorldFacts } from './world-facts';
import { copyOfWorld } from './world-setup';

// Issue 22's benchmark: webhook delivery over a copy of the benchmark world on SQLite, one
// `orgsec serve`. Three organization hooks of the big organization point at a receiver in this
// process. CHANGES distinct alerts are dismissed or reopened through #27 at CHANGE_RATE a
// second (one client) while distinct organization alert pages are read (autocannon, its own
// process); each change's delay is from its 2xx answer (the commit is before it) to the arrival
// of its delivery at the receiver, per hook. Before it, the same reads alone, then beside the
// same changes with no hook: what the deliveries cost, apart from what the changes cost.

export const WEBHOOK_SCENARIO = 'webhook delivery';
const CHANGES = 1_000;
const CHANGE_RATE = 25;
const HOOKS = 3;
const MEDIAN_LIMIT_MS = 200;

export interface WebhookBenchResult {
  changes: number;
  hooks: number;
  delivered: number;
  /** Delivered more than once (at least once allows it). */
  duplicates: number;
  delayP50: number;
  delayP99: number;
  /** PATCH p50 while delivering. */
  changeP50: number;
  readOnly: LoadResult;
  /** The reads beside the same changes with no hook. */
  changesOnly: LoadResult;
  changesOnlyP50: number;
  withDeliveries: LoadResult;
  error?: string;
}

/** The scenario could not run. */
export interface WebhookBenchError {
  error: string;
}

export interface WebhookBenchSettings {
  workDir: string;
  worldFile: string;
  port: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}



export async function benchWebhooks(s: WebhookBenchSettings): Promise<WebhookBenchResult | WebhookBenchError> {
  const file = copyOfWorld(s.worldFile, s.workDir, 'webhooks.sqlite');
  // Arrivals by change key (repository#number) and hook: the first arrival's time.
  const arrivals = new Map<string, number>();
  let received = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      received += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { alert: { number: number }; repository: { full_name: string } };
      const key = `${body.repository.full_name}#${body.alert.number} ${String(req.headers['x-service-hook-id'])}`;
      if (!arrivals.has(key)) arrivals.set(key, at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;

  const db = openDatabase(file);
  let facts: Awaited<ReturnType<typeof readWorldFacts>>;
  try {
    facts = await readWorldFacts(db, BIG_ORG, 1);
  } finally {
    await db.close();
  }
  if (facts.patchAlerts.length < CHANGES) return { error: `the world has ${facts.patchAlerts.length} alerts to change, fewer than ${CHANGES}` };
  const plan = (firstIndex: number) => ({ kind: 'distinct-pages' as const, org: BIG_ORG, cursors: facts.middleCursors, firstIndex, headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
  const changeSeconds = CHANGES / CHANGE_RATE;
  const load = { connections: s.connections, seconds: changeSeconds, warmupSeconds: s.warmupSeconds };

  const server = await startOrgsec(file, s.port, { pinned: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on' } });
  const alerts = facts.patchAlerts.slice(0, CHANGES);
  /**
   * The reads with the changes beside them, on a fixed schedule from one client: a change every
   * 1/CHANGE_RATE s (or as soon as the last is answered). Round 0 moves each alert out of its
   * state in the world, round 1 back: every PATCH is a change.
   */
  const readWhileChanging = async (round: 0 | 1, firstIndex: number) => {
    const acknowledged = new Map<string, number>();
    const changeTimes: number[] = [];
    const reading = drive({ ...load, url: server.url, plan: plan(firstIndex) }, s.workDir);
    await sleep(s.warmupSeconds * 1000);
    const started = performance.now();
    for (const [i, alert] of alerts.entries()) {
      const due = started + (i * 1000) / CHANGE_RATE;
      if (performance.now() < due) await sleep(due - performance.now());
      const dismiss = (alert.state === 'open') === (round === 0);
      const body = dismiss ? '{"state":"dismissed","dismissed_reason":"tolerable_risk"}' : '{"state":"open"}';
      const sent = performance.now();
      await patchAlert(server.url, alert.repository, alert.number, body);
      const at = performance.now();
      changeTimes.push(at - sent);
      acknowledged.set(`${alert.repository}#${alert.number}`, at);
    }
    return { reads: await reading, changeP50: median(changeTimes), acknowledged };
  };
  try {
    const readOnly = await drive({ ...load, url: server.url, plan: plan(9_000_000) }, s.workDir);
    const withoutHooks = await readWhileChanging(0, 9_250_000);
    // The hooks, as the hook API writes them (written under the running server: the next write sees them).
    const writer = openDatabase(file);
    try {
      const org = await writer.knex('accounts').where('login', BIG_ORG).first('id');
      for (let i = 0; i < HOOKS; i++) {
        await writer.knex('webhooks').insert({
          org_id: org.id, repo_id: null, name: 'web', active: true, events: '["dependency_bot_alert"]', url: receiverUrl, content_type: 'json',
          secret: `bench-secret-${i}`, insecure_ssl: '0', created_at: '2026-11-27T10:00:00Z', updated_at: '2026-11-27T10:00:00Z',
        });
      }
    } finally {
      await writer.close();
    }
    const withHooks = await readWhileChanging(1, 9_500_000);
    const deadline = Date.now() + 60_000;
    while (arrivals.size < CHANGES * HOOKS && Date.now() < deadline) await sleep(50);
    const delays = [...arrivals.entries()].map(([key, at]) => at - withHooks.acknowledged.get(key.split(' ')[0]!)!).filter((d) => !Number.isNaN(d));
    const result: WebhookBenchResult = {
      changes: CHANGES, hooks: HOOKS, delivered: arrivals.size, duplicates: received - arrivals.size,
      delayP50: median(delays), delayP99: percentile(delays, 0.99), readOnly,
      changesOnly: withoutHooks.reads, changesOnlyP50: withoutHooks.changeP50, withDeliveries: withHooks.reads, changeP50: withHooks.changeP50,
    };
    process.stderr.write(`  webhooks: ${result.delivered}/${CHANGES * HOOKS} delivered, delay p50 ${result.delayP50.toFixed(1)} ms, p99 ${result.delayP99.toFixed(1)} ms; distinct pages ${readOnly.rps.toFixed(0)} req/s alone, ${withoutHooks.reads.rps.toFixed(0)} beside the changes with no hook, ${withHooks.reads.rps.toFixed(0)} while delivering\n`);
    return result;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.stop();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** The result's lines of the Markdown table (same columns as the others). */
export function webhookLines(r: WebhookBenchResult | WebhookBenchError): string[] {
  if (!('changes' in r)) return [`| ${WEBHOOK_SCENARIO} [webhooks] | failed: ${r.error} | | | | | | | | |`];
  const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
  const all = r.delivered === r.changes * r.hooks;
  return [
    `| distinct organization pages, alone (no change, no hook) | ${Math.round(r.readOnly.rps)} | ${ms(r.readOnly.p50)} | ${ms(r.readOnly.p99)} | | | | | | |`,
    `| the same beside ${r.changes.toLocaleString('en')} alert changes (${CHANGE_RATE}/s, PATCH p50 ${ms(r.changesOnlyP50)} ms) with no hook | ${Math.round(r.changesOnly.rps)} | ${ms(r.changesOnly.p50)} | ${ms(r.changesOnly.p99)} | | | ${Math.round(r.readOnly.rps)} (no change) | ${((r.changesOnly.rps / r.readOnly.rps) * 100).toFixed(1)}% | | |`,
    `| the same beside the changes undone (${CHANGE_RATE}/s, PATCH p50 ${ms(r.changeP50)} ms), each to ${r.hooks} hooks: ${r.delivered.toLocaleString('en')} delivered${r.duplicates ? `, ${r.duplicates} twice` : ''} | ${Math.round(r.withDeliveries.rps)} | ${ms(r.withDeliveries.p50)} | ${ms(r.withDeliveries.p99)} | | | ${Math.round(r.changesOnly.rps)} (no hook) | ${((r.withDeliveries.rps / r.changesOnly.rps) * 100).toFixed(1)}% | | |`,
    `| webhook delay, the change's 2xx answer to the receiver (p50, p99) | | ${ms(r.delayP50)} | ${ms(r.delayP99)} | | | | | p50 ≤ ${MEDIAN_LIMIT_MS} ms, all delivered | ${r.delayP50 <= MEDIAN_LIMIT_MS && all ? 'yes' : '**no**'} |`,
  ];
}
