import type { Knex } from 'knex';
import { ORIGIN, type ApiAnswer, type ApiClient } from '../durability/api-client';
import { ORG } from '../durability/crash-world';
import type { Lane } from '../durability/lane';

// The clients of the PostgreSQL outage tests: every answer they get is recorded (status,
// time taken, Retry-After), a write answered 503 stays in flight until the lane settles it
// after the outage, and /readyz is watched on every instance.

export const SNAPSHOT_REPO = 'snaps';

export interface Recorded {
  at: number;
  ms: number;
  method: string;
  path: string;
  status: number;
  retryAfter: string | null;
  body: any;
}

/** The messages of a snapshot refused while snapshots have had their share of the instance or its queue is full. */
export const SNAPSHOT_REFUSAL = /^(Dependency snapshots have had their share|Too many dependency snapshots are waiting)/;

/** A snapshot refused with 503 and Retry-After for its share or the queue (README, Dependency snapshots): an answer, not a fault. */
export function isSnapshotRefusal(r: Recorded): boolean {
  return r.status === 503 && r.path.endsWith('/dependency-graph/snapshots') && /^\d+$/.test(r.retryAfter ?? '') && SNAPSHOT_REFUSAL.test(r.body?.message ?? '');
}

/** A write the server refused with 503: it may be absent or whole, never half. */
export class Unacknowledged extends Error {}

/** Real HTTP to one instance, every answer recorded; `refuseOn503` turns a 503 into Unacknowledged. */
export function recordingClient(baseUrl: string, token: string, log: Recorded[], refuseOn503: boolean): ApiClient {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  return {
    async send(method, path, body) {
      const started = Date.now();
      const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000) });
      const text = (await res.text()).split(baseUrl).join(ORIGIN);
      const answer: ApiAnswer = { status: res.status, body: text ? JSON.parse(text) : undefined };
      log.push({ at: started, ms: Date.now() - started, method, path, status: res.status, retryAfter: res.headers.get('retry-after'), body: answer.body });
      if (refuseOn503 && res.status === 503) throw new Unacknowledged(`${method} ${path} answered 503`);
      return answer;
    },
  };
}

/** Retries 503s (the outage) for up to 30 s: how the checks after a fault read. */
export function patientClient(api: ApiClient): ApiClient {
  return {
    async send(method, path, body) {
      const until = Date.now() + 30_000;
      for (;;) {
        const answer = await api.send(method, path, body);
        if (answer.status !== 503 || Date.now() > until) return answer;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  };
}

/**
 * One lane writing until `isRunning()` turns false, through the fault: a write refused with
 * 503 is settled (absent or whole, then adopted) once the database answers again, and the
 * lane goes on (after `pauseMs`, a client's pace). Any other failure is a problem.
 */
export async function driveThroughFaults(lane: Lane, api: ApiClient, verifier: ApiClient, knex: Knex, isRunning: () => boolean, pauseMs = 0): Promise<string[]> {
  const problems: string[] = [];
  while (isRunning()) {
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    try {
      const problem = await lane.write(api);
      if (problem) problems.push(problem);
    } catch (error) {
      if (!(error instanceof Unacknowledged)) problems.push(`${lane.name}: ${String(error)}`);
      problems.push(...(await lane.verify(verifier, knex)));
    }
  }
  return problems;
}

/** Reads the repository's alerts in a loop: each answer is 200 or, during the outage, 503. */
export async function readLoop(api: ApiClient, path: string, isRunning: () => boolean): Promise<string[]> {
  const problems: string[] = [];
  while (isRunning()) {
    try {
      await api.send('GET', path);
    } catch (error) {
      problems.push(`GET ${path}: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return problems;
}

/** A dashboard's GraphQL query of the repository's alerts, in a loop. */
export async function graphqlReadLoop(api: ApiClient, isRunning: () => boolean): Promise<string[]> {
  const query = `{ repository(owner: "${ORG}", name: "app") { dependencyAlerts(first: 20) { totalCount edges { node { number state } } } } }`;
  const problems: string[] = [];
  while (isRunning()) {
    try {
      await api.send('POST', '/graphql', { query });
    } catch (error) {
      problems.push(`POST /graphql: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return problems;
}

function snapshotBody(packageName: string, sequence: number) {
  return {
    version: 0, sha: sequence.toString(16).padStart(40, '0'), ref: 'refs/heads/main',
    job: { id: `fault-${sequence}`, correlator: `fault-lane-${packageName}` },
    detector: { name: 'fault-detector', version: '1.0.0', url: 'https://example.com/fault-detector' },
    scanned: new Date().toISOString(),
    manifests: { [packageName]: { name: packageName, file: { source_location: `${packageName}/package-lock.json` }, resolved: { [packageName]: { package_url: `pkg:npm/${packageName}@1.0.0` } } } },
  };
}

/**
 * Snapshots, each of a package of its own under a correlator of its own, so the repository's
 * dependencies are the union of every applied one: after the outage the SBOM holds every
 * acknowledged snapshot's package (queued ones once the worker has applied them).
 */
export class SnapshotLane implements Lane {
  readonly name = 'snapshots';
  private readonly acknowledged: string[] = [];
  private inFlight: string | undefined;
  private sequence = 0;
  private tally = { acknowledged: 0, inFlight: 0, appliedInFlight: 0 };

  async write(api: ApiClient): Promise<string | undefined> {
    const sequence = ++this.sequence;
    const name = `fault-pkg-${sequence}`;
    this.inFlight = name;
    const answer = await api.send('POST', `/repos/${ORG}/${SNAPSHOT_REPO}/dependency-graph/snapshots`, snapshotBody(name, sequence));
    this.inFlight = undefined;
    if (answer.status !== 201) return `snapshots: POST answered ${answer.status} ${JSON.stringify(answer.body)}`;
    this.acknowledged.push(name);
    this.tally.acknowledged += 1;
    return undefined;
  }

  async verify(api: ApiClient): Promise<string[]> {
    const until = Date.now() + 30_000;
    for (;;) {
      const { status, body } = await api.send('GET', `/repos/${ORG}/${SNAPSHOT_REPO}/dependency-graph/sbom`);
      const names = new Set<string>(status === 200 ? body.sbom.packages.map((p: { name: string }) => p.name) : []);
      const missing = this.acknowledged.filter((name) => !names.has(name));
      if (missing.length === 0 || Date.now() > until) {
        if (this.inFlight !== undefined) {
          this.tally.inFlight += 1;
          if (names.has(this.inFlight)) { this.tally.appliedInFlight += 1; this.acknowledged.push(this.inFlight); }
          this.inFlight = undefined;
        }
        return missing.length === 0 ? [] : [`snapshots: ${missing.length} acknowledged snapshots are missing from the SBOM (${missing.slice(0, 5).join(', ')}…; status ${status})`];
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // queued ones: the worker applies them
    }
  }

  counts() {
    return { ...this.tally };
  }
}

export interface ReadinessSample {
  at: number;
  ready: boolean;
}

/** Polls /readyz every 100 ms (each poll given 2 s) until stopped. */
export function watchReadiness(url: string): { samples: ReadinessSample[]; stop(): Promise<void> } {
  const samples: ReadinessSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status === 200, () => false);
      samples.push({ at, ready });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return { samples, stop: async () => { running = false; await loop; } };
}

/** The first sample at or after `from` whose readiness is `ready`. */
export function firstSample(samples: ReadinessSample[], from: number, ready: boolean): ReadinessSample | undefined {
  return samples.find((s) => s.at >= from && s.ready === ready);
}
