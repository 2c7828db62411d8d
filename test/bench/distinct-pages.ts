// Alert pages, no two alike: request i of a run is the i-th point of a space of filter
// combinations (spec §4.4), visited in a scrambled order so neighbours differ in every filter;
// over one organization's list, or over its repositories' lists (one more dimension: which
// repository). Every combination matches alerts: the world's advisories (generate-osv.ts) spread their
// packages evenly over nine ecosystems and their severities over all four, cursors point into
// the middle third of the list, and the narrowest combination still leaves hundreds of alerts.
// Package names are not among the filters: with 20,000 advisories of the public database's
// shape, a package has one or two alerts in an organization, so its pages would be empty.

/** Cursors (spec §4.4 `after`) of rows in the middle third of the organization's list, per order. */
export interface MiddleCursors {
  createdDesc: string[];
  createdAsc: string[];
}

const PER_PAGE = Array.from({ length: 21 }, (_, i) => 20 + i);
const STATES = [undefined, 'open', 'open,dismissed', 'open,fixed'];
const SEVERITIES = [undefined, 'low,medium', 'low,critical', 'medium,high', 'high,critical', 'low,medium,high', 'low,medium,critical', 'low,high,critical', 'medium,high,critical', 'low,medium,high,critical'];
const ECOSYSTEMS: Array<Record<string, string>> = [
  {}, { ecosystem: 'npm' }, { ecosystem: 'pip' }, { ecosystem: 'rubygems' }, { ecosystem: 'maven' }, { ecosystem: 'go' }, { ecosystem: 'npm,pip' }, { ecosystem: 'go,maven' },
  { ecosystem: 'rust' }, { ecosystem: 'nuget' }, { ecosystem: 'composer,pub' }, { ecosystem: 'npm,rust,go' },
];
const SCOPES = [undefined, 'runtime', 'development'];
const RELATIONSHIPS = [undefined, 'direct', 'transitive'];

function orders(cursors: MiddleCursors): Array<Record<string, string>> {
  return [
    { sort: 'created', direction: 'desc' }, { sort: 'created', direction: 'asc' }, { sort: 'updated', direction: 'desc' }, { sort: 'updated', direction: 'asc' },
    ...cursors.createdDesc.map((after) => ({ sort: 'created', direction: 'desc', after })),
    ...cursors.createdAsc.map((after) => ({ sort: 'created', direction: 'asc', after })),
  ];
}

export class DistinctPages {
  private readonly orders: Array<Record<string, string>>;
  /** The lists' paths: the organization's, or each of `repositories`'. */
  private readonly lists: string[];
  readonly size: number;
  private readonly stride: number;

  /** `repositories` (names in `org`): pages of their lists instead of the organization's. */
  constructor(org: string, cursors: MiddleCursors, repositories?: readonly string[]) {
    this.orders = orders(cursors);
    this.lists = repositories?.length ? repositories.map((name) => `/repos/${org}/${name}/dependency-bot/alerts`) : [`/orgs/${org}/dependency-bot/alerts`];
    this.size = this.lists.length * PER_PAGE.length * this.orders.length * STATES.length * SEVERITIES.length * ECOSYSTEMS.length * SCOPES.length * RELATIONSHIPS.length;
    // A stride coprime with the size visits every point once before any repeats.
    let stride = 1_000_003;
    while (gcd(stride, this.size) !== 1) stride += 2;
    this.stride = stride;
  }

  /** The path of request `index` (distinct for every index below `size`). */
  path(index: number): string {
    let rest = (index * this.stride) % this.size;
    const take = <T>(values: readonly T[]): T => {
      const value = values[rest % values.length]!;
      rest = Math.floor(rest / values.length);
      return value;
    };
    const list = take(this.lists);
    const params = new URLSearchParams({ per_page: String(take(PER_PAGE)), ...take(this.orders), ...take(ECOSYSTEMS) });
    for (const [name, value] of [['state', take(STATES)], ['severity', take(SEVERITIES)], ['scope', take(SCOPES)], ['relationship', take(RELATIONSHIPS)]] as const) {
      if (value !== undefined) params.set(name, value);
    }
    return `${list}?${params}`;
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
