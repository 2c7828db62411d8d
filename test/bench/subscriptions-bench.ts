import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { packageRoot } from '../../src/cli/paths';
import { openDatabase } from '../../src/database/connection';
import { drive } from './drive';
import type { RunningServer } from './floors';
import { BIG_ORG } from './generate-world';
import type { LoadResult } from './load-plan';
import { median, percentile, sleep } from './measure';
import { patchAlert } from './alert-changes';
import type { WebhookBenchSettings } from './webhooks-bench';
import { startOrgsec } from './orgsec-server';
import { readStatusBytes } from './processes';
import { patchMixScenario } from './scenarios';
import { readWorldFacts } from './world-facts';
import { copyOfWorld } from './world-setup';

// Issue 38's benchmark: live alert events (GraphQL subscriptions over graphql-ws). SUBSCRIBERS
// graphql-ws clients in this process, each on a connection of its own (10 per token, the limit),
// subscribe to the big organization's events while the PATCH mix runs (autocannon, its own
// process: 9 in 10 requests distinct pages, 1 in 10 a PATCH). Beside it, this process dismisses
// or reopens other alerts at MARKER_RATE a second; each marker's delay is from its 2xx answer
// (the commit is before it) to its event's arrival at each subscriber. Before that, the memory
// the subscribers take (RSS with them, idle, less RSS without). On SQLite, one instance; on
// PostgreSQL (BENCH_DATABASE_URL), subscribers on one instance and every write through another,
// with LISTEN/NOTIFY and then with the poll alone (SUBSCRIPTION_LISTEN=off).

export const SUBSCRIPTION_SCENARIO = 'live subscriptions';
const SUBSCRIBERS = 100;
const CONNECTIONS_PER_TOKEN = 10;
const MARKERS = 200;
const MARKER_RATE = 10;
const MEDIAN_LIMIT_MS = 100;

const EVENTS = `subscription Events($organization: String) {
  dependencyAlertEvents(organization: $organization) { id action alert { number state repository { nameWithOwner } } }
}`;

export interface SubscriptionRun {
  label: string;
  subscribers: number;
  /** RSS the idle subscribers added to the instance they are on, per subscriber (KiB). */
  idleKibPerSubscriber: number | undefined;
  markers: number;
  /** Marker events that reached every subscriber (of markers × subscribers). */
  delivered: number;
  /** Events a subscriber got twice. */
  duplicates: number;
  delayP50: number;
  delayP99: number;
  /** Every event of the run, per subscriber (the PATCH mix's too). */
  eventsPerSubscriber: number;
  mix: LoadResult;
  /** The same PATCH mix with no subscriber, just before. */
  mixAlone: LoadResult;
  markerP50: number;
  error?: string;
}

export interface SubscriptionBenchSettings extends WebhookBenchSettings {
  /** PostgreSQL: the benchmark schema's URL (its world equal to the SQLite one's shape). */
  postgresUrl?: string | undefined;
}



/** Tokens of the benchmark's owner, made with `orgsec token create` (one per 10 subscribers: the per-token connection limit). */
function createTokens(database: string, count: number): string[] {
  const cli = path.join(packageRoot(), 'dist', 'src', 'cli', 'index.js');
  return Array.from({ length: count }, () => {
    const made = spawnSync(process.execPath, [cli, 'token', 'create', '--user', 'bench-owner', '--scopes', 'repo,read:org', '--database', database], {
      encoding: 'utf8', env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    });
    if (made.status !== 0) throw new Error(`orgsec token create: ${made.stderr}`);
    return made.stdout.trim();
  });
}

interface Subscriber {
  client: Client;
  /** Arrival time by alert key (repository#number) and state, of the first arrival. */
  arrivals: Map<string, number>;
  ids: Set<string>;
  duplicates: number;
  /** How the server closed the connection, if it did. */
  closed?: string;
  errors: string[];
}

async function subscribeAll(url: string, tokens: readonly string[], count: number): Promise<Subscriber[]> {
  const subscribers: Subscriber[] = [];
  for (let i = 0; i < count; i++) {
    const token = tokens[Math.floor(i / CONNECTIONS_PER_TOKEN)]!;
    const subscriber: Subscriber = { client: undefined as unknown as Client, arrivals: new Map(), ids: new Set(), duplicates: 0, errors: [] };
    const client = createClient({
      url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${token}` }, lazy: false, retryAttempts: 0,
      on: { closed: (event) => { const e = event as { code: number; reason: unknown }; subscriber.closed ??= `${e.code} ${String(e.reason)}`; } },
    });
    subscriber.client = client;
    client.subscribe<{ dependencyAlertEvents: { id: string; alert: { number: number; state: string; repository: { nameWithOwner: string } } } }>({ query: EVENTS, variables: { organization: BIG_ORG } }, {
      next: ({ data }) => {
        const at = performance.now();
        const event = data!.dependencyAlertEvents;
        if (subscriber.ids.has(event.id)) subscriber.duplicates += 1;
        subscriber.ids.add(event.id);
        const key = `${event.alert.repository.nameWithOwner}#${event.alert.number} ${event.alert.state}`;
        if (!subscriber.arrivals.has(key)) subscriber.arrivals.set(key, at);
      },
      error: (error) => { subscriber.errors.push(JSON.stringify(error).slice(0, 200)); },
      complete: () => undefined,
    });
    subscribers.push(subscriber);
  }
  return subscribers;
}

/** One run: subscribers on `subscribed`, the PATCH mix and the markers through `written`. */
async function run(label: string, subscribed: RunningServer, written: RunningServer, database: string, s: SubscriptionBenchSettings): Promise<SubscriptionRun> {
  const db = openDatabase(database);
  const facts = await readWorldFacts(db, BIG_ORG, 1).finally(() => db.close());
  // A third of the alerts for the PATCH mix alone, a third for it beside the subscribers, the markers from the last: no alert changed twice.
  const third = Math.floor(facts.patchAlerts.length / 3);
  const markers = facts.patchAlerts.slice(2 * third, 2 * third + MARKERS);
  if (markers.length < MARKERS) throw new Error(`the world has ${facts.patchAlerts.length} alerts to change, fewer than ${3 * MARKERS}`);
  const mixOf = (alerts: typeof facts.patchAlerts, firstIndex: number) => {
    const { plan } = patchMixScenario({ ...facts, patchAlerts: alerts }, { connections: s.connections });
    return { ...plan, firstIndex } as typeof plan;
  };
  const seconds = MARKERS / MARKER_RATE;
  // The PATCH mix before anyone subscribes: what the subscribers' events cost it.
  const mixAlone = await drive({ url: written.url, connections: s.connections, seconds, warmupSeconds: s.warmupSeconds, plan: mixOf(facts.patchAlerts.slice(0, third), 7_000_000) }, s.workDir);
  const tokens = createTokens(database, Math.ceil(SUBSCRIBERS / CONNECTIONS_PER_TOKEN));
  // The GraphQL stack is loaded by the first connection: one subscriber comes and goes before the idle figure.
  const warm = await subscribeAll(subscribed.url, tokens, 1);
  await sleep(1_000);
  await Promise.all(warm.map((w) => w.client.dispose()));
  await sleep(1_000);
  const before = readStatusBytes(subscribed.pid, 'VmRSS');
  const subscribers = await subscribeAll(subscribed.url, tokens, SUBSCRIBERS);
  await sleep(3_000);
  const after = readStatusBytes(subscribed.pid, 'VmRSS');
  const idleKibPerSubscriber = before === undefined || after === undefined ? undefined : (after - before) / 1024 / SUBSCRIBERS;
  try {
    const mixing = drive({ url: written.url, connections: s.connections, seconds, warmupSeconds: s.warmupSeconds, plan: mixOf(facts.patchAlerts.slice(third, 2 * third), 7_500_000) }, s.workDir);
    await sleep(s.warmupSeconds * 1000);
    const acknowledged = new Map<string, number>();
    const markerTimes: number[] = [];
    const started = performance.now();
    for (const [i, alert] of markers.entries()) {
      const due = started + (i * 1000) / MARKER_RATE;
      if (performance.now() < due) await sleep(due - performance.now());
      const dismiss = alert.state === 'open';
      const sent = performance.now();
      await patchAlert(written.url, alert.repository, alert.number, dismiss ? '{"state":"dismissed","dismissed_reason":"tolerable_risk"}' : '{"state":"open"}');
      const at = performance.now();
      markerTimes.push(at - sent);
      acknowledged.set(`${alert.repository}#${alert.number} ${dismiss ? 'DISMISSED' : 'OPEN'}`, at);
    }
    const mix = await mixing;
    const closedEarly = subscribers.filter((sub) => sub.closed !== undefined || sub.errors.length > 0);
    if (closedEarly.length > 0) process.stderr.write(`  ${closedEarly.length} subscribers closed or refused: ${[...new Set(closedEarly.map((sub) => `${sub.closed ?? ''} ${sub.errors.join(' ')}`))].join('; ')}\n`);
    const deadline = Date.now() + 30_000;
    const arrived = () => subscribers.reduce((n, sub) => n + [...acknowledged.keys()].filter((key) => sub.arrivals.has(key)).length, 0);
    while (arrived() < MARKERS * SUBSCRIBERS && Date.now() < deadline) await sleep(100);
    const delays = subscribers.flatMap((sub) => [...acknowledged].flatMap(([key, at]) => (sub.arrivals.has(key) ? [Math.max(0, sub.arrivals.get(key)! - at)] : [])));
    const result: SubscriptionRun = {
      label, subscribers: SUBSCRIBERS, idleKibPerSubscriber, markers: MARKERS, delivered: delays.length, duplicates: subscribers.reduce((n, sub) => n + sub.duplicates, 0),
      delayP50: median(delays), delayP99: percentile(delays, 0.99), eventsPerSubscriber: median(subscribers.map((sub) => sub.ids.size)), mix, mixAlone, markerP50: median(markerTimes),
    };
    process.stderr.write(`  subscriptions (${label}): ${result.delivered}/${MARKERS * SUBSCRIBERS} marker events, delay p50 ${result.delayP50.toFixed(1)} ms, p99 ${result.delayP99.toFixed(1)} ms; `
      + `${result.eventsPerSubscriber} events per subscriber; PATCH mix ${mix.rps.toFixed(0)} req/s; ${idleKibPerSubscriber?.toFixed(0)} KiB per idle subscriber\n`);
    return result;
  } finally {
    await Promise.all(subscribers.map((sub) => sub.client.dispose()));
  }
}

const NO_LOAD = { rps: 0, p50: 0, p99: 0, requests: 0, statuses: {}, unexpected: 0, errors: 0, timeouts: 0, emptyPages: 0, repeated: 0 } as unknown as LoadResult;

const failed = (label: string, error: unknown): SubscriptionRun => ({
  label, subscribers: SUBSCRIBERS, idleKibPerSubscriber: undefined, markers: MARKERS, delivered: 0, duplicates: 0, delayP50: Number.NaN, delayP99: Number.NaN,
  eventsPerSubscriber: 0, mix: NO_LOAD, mixAlone: NO_LOAD, markerP50: Number.NaN,
  error: error instanceof Error ? error.message : String(error),
});

export async function benchSubscriptions(s: SubscriptionBenchSettings): Promise<SubscriptionRun[]> {
  const runs: SubscriptionRun[] = [];
  const file = copyOfWorld(s.worldFile, s.workDir, 'subscriptions.sqlite');
  const label = 'SQLite, one instance';
  try {
    const server = await startOrgsec(file, s.port, { pinned: true });
    try {
      runs.push(await run(label, server, server, file, s));
    } finally {
      await server.stop();
    }
  } catch (error) {
    runs.push(failed(label, error));
  }
  if (!s.postgresUrl) return runs;
  for (const listen of ['on', 'off'] as const) {
    const pgLabel = `PostgreSQL, subscribers on one instance, writes through another, ${listen === 'on' ? 'LISTEN/NOTIFY' : 'poll alone (SUBSCRIPTION_LISTEN=off, 250 ms)'}`;
    try {
      const subscribed = await startOrgsec(s.postgresUrl, s.port, { pinned: false, env: { SUBSCRIPTION_LISTEN: listen } });
      try {
        const written = await startOrgsec(s.postgresUrl, s.port + 1, { pinned: false, env: { SUBSCRIPTION_LISTEN: listen } });
        try {
          runs.push(await run(pgLabel, subscribed, written, s.postgresUrl, s));
        } finally {
          await written.stop();
        }
      } finally {
        await subscribed.stop();
      }
    } catch (error) {
      runs.push(failed(pgLabel, error));
    }
  }
  return runs;
}

/** The runs' lines of the Markdown table (same columns as the others). */
export function subscriptionLines(runs: readonly SubscriptionRun[]): string[] {
  const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
  return runs.flatMap((r) => {
    if (r.error) return [`| ${SUBSCRIPTION_SCENARIO} (${r.label}) | failed: ${r.error} | | | | | | | | |`];
    const all = r.delivered === r.markers * r.subscribers && r.duplicates === 0;
    return [
      `| PATCH mix with no subscriber (${r.label}) | ${Math.round(r.mixAlone.rps)} | ${ms(r.mixAlone.p50)} | ${ms(r.mixAlone.p99)} | | | | | | |`,
      `| the same beside ${r.subscribers} subscribers (${r.eventsPerSubscriber.toLocaleString('en')} events each) | ${Math.round(r.mix.rps)} | ${ms(r.mix.p50)} | ${ms(r.mix.p99)} | | | ${Math.round(r.mixAlone.rps)} (none) | ${((r.mix.rps / r.mixAlone.rps) * 100).toFixed(1)}% | | |`,
      `| event delay to ${r.subscribers} subscribers, the change's 2xx answer to its event (p50, p99; ${r.markers} changes at ${MARKER_RATE}/s, PATCH p50 ${ms(r.markerP50)} ms): ${r.delivered.toLocaleString('en')} of ${(r.markers * r.subscribers).toLocaleString('en')} arrived${r.duplicates ? `, ${r.duplicates} twice` : ''} | | ${ms(r.delayP50)} | ${ms(r.delayP99)} | | | | | p50 ≤ ${MEDIAN_LIMIT_MS} ms, all arrived once | ${r.delayP50 <= MEDIAN_LIMIT_MS && all ? 'yes' : '**no**'} |`,
      `| memory of one idle subscriber (its connection and subscription; RSS of ${r.subscribers}) | | | | | | | | ${r.idleKibPerSubscriber === undefined ? 'not read' : `${r.idleKibPerSubscriber.toFixed(0)} KiB`} | |`,
    ];
  });
}
