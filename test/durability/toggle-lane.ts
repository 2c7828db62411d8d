import type { ApiClient } from './api-client';
import { LaneCounts, pick, type Lane, type Random } from './lane';

// A lane over things that are either there or not (a role assignment, an OIDC property
// inclusion): each write flips one of them, so after a crash each is where the last
// acknowledged write left it, or, for the one in flight, where that write would put it.

export interface Request {
  method: string;
  path: string;
  body?: unknown;
  /** The status a success answers. */
  status: number;
}

export interface ToggleTarget {
  keys: readonly string[];
  add(key: string): Request;
  remove(key: string): Request;
  /** The keys that are there now, read through the API. */
  present(api: ApiClient): Promise<Set<string>>;
}

export class ToggleLane implements Lane {
  private acknowledged: Set<string> | undefined;
  private inFlight: { key: string; adding: boolean } | undefined;
  private readonly tally = new LaneCounts();

  constructor(readonly name: string, private readonly target: ToggleTarget, private readonly random: Random) {}

  async write(api: ApiClient): Promise<string | undefined> {
    const key = pick(this.random, this.target.keys);
    const adding = !this.acknowledged!.has(key);
    const request = adding ? this.target.add(key) : this.target.remove(key);
    this.inFlight = { key, adding };
    const answer = await api.send(request.method, request.path, request.body);
    this.inFlight = undefined;
    if (answer.status !== request.status) return `${this.name}: ${request.method} ${request.path} answered ${answer.status} ${JSON.stringify(answer.body)}`;
    if (adding) this.acknowledged!.add(key);
    else this.acknowledged!.delete(key);
    this.tally.acknowledged += 1;
    return undefined;
  }

  async verify(api: ApiClient): Promise<string[]> {
    const actual = await this.target.present(api);
    const problems: string[] = [];
    if (this.acknowledged) {
      for (const key of this.target.keys) {
        const expected = this.acknowledged.has(key);
        if (actual.has(key) === expected) continue;
        if (this.inFlight?.key === key && actual.has(key) === this.inFlight.adding) continue;
        problems.push(`${this.name}: ${key} is ${actual.has(key) ? 'there' : 'missing'}, but the last acknowledged write left it ${expected ? 'there' : 'missing'}`);
      }
      const stray = [...actual].filter((key) => !this.target.keys.includes(key));
      if (stray.length > 0) problems.push(`${this.name}: never written, yet there: ${stray.join(', ')}`);
    }
    if (this.inFlight) this.tally.settle(actual.has(this.inFlight.key) === this.inFlight.adding);
    this.inFlight = undefined;
    this.acknowledged = actual;
    return problems;
  }

  counts() {
    return this.tally.snapshot();
  }
}
