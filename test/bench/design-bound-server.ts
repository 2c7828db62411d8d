import http from 'node:http';
import BetterSqlite3 from 'better-sqlite3';

// A design bound, not a product: what a distinct organization alert page costs when nothing but
// the page is done. Raw node:http, no authentication, no data versions, no ETag, no Link header,
// no logging; filters (state, severity, ecosystem, scope, relationship), the sort direction and
// `after` (the sort value it names) applied to an in-memory list index of one organization; each
// alert's JSON pre-serialized (design-bound.ts builds the file from orgsec's own answers).
//
// `design-bound-server.js FILE MODE PORT`, MODE `sqlite`: the page's parts are read per request
// from SQLite (two statements: the alerts' own parts, their advisories), repositories held in
// memory; MODE `memory`: every part is held in memory. GET /metrics counts requests and statements
// under orgsec's metric names, so the bench's SQL/req column reads it as it reads orgsec's.

const [file, mode, port] = process.argv.slice(2) as [string, 'sqlite' | 'memory', string];
// better-sqlite3's default page cache (16 MB), as orgsec's connections have.
const db = new BetterSqlite3(file, { readonly: true });

interface AlertParts { own: Buffer; advisory_id: number; repo_id: number }
const ADVISORY_MARK = Buffer.from('"@@ADVISORY@@"');
const REPOSITORY_MARK = Buffer.from('"@@REPOSITORY@@"');

/** Small integer codes for the filter columns: a filter is a mask over them. */
function coder(): (value: string) => number {
  const codes = new Map<string, number>();
  return (value) => {
    let code = codes.get(value);
    if (code === undefined) codes.set(value, (code = codes.size));
    return code;
  };
}
const FILTERS = ['state', 'severity', 'ecosystem', 'scope', 'relationship'] as const;
const coders = Object.fromEntries(FILTERS.map((f) => [f, coder()])) as Record<(typeof FILTERS)[number], (value: string) => number>;

// Newest first, as the list's default order.
const rows = db.prepare('SELECT position, created_at, state, severity, ecosystem, scope, relationship FROM alert_json ORDER BY position').all() as Array<Record<string, string | number>>;
const count = rows.length;
const createdAt = rows.map((r) => String(r.created_at));
const positions = Int32Array.from(rows.map((r) => Number(r.position)));
const columns = Object.fromEntries(FILTERS.map((f) => [f, Uint8Array.from(rows.map((r) => coders[f](String(r[f]))))])) as Record<(typeof FILTERS)[number], Uint8Array>;

const repositories = new Map((db.prepare('SELECT id, json FROM repository_json').all() as Array<{ id: number; json: Buffer }>).map((r) => [r.id, r.json]));
const heldAlerts = mode === 'memory' ? new Map((db.prepare('SELECT position, own, advisory_id, repo_id FROM alert_json').all() as Array<AlertParts & { position: number }>).map((a) => [a.position, a])) : undefined;
const heldAdvisories = mode === 'memory' ? new Map((db.prepare('SELECT id, json FROM advisory_json').all() as Array<{ id: number; json: Buffer }>).map((a) => [a.id, a.json])) : undefined;

let requests = 0;
let statements = 0;
const prepared = new Map<string, BetterSqlite3.Statement>();
function byIds<T>(table: 'alert_json' | 'advisory_json', key: string, columnsList: string, ids: number[]): T[] {
  const sql = `SELECT ${columnsList} FROM ${table} WHERE ${key} IN (${ids.map(() => '?').join(',')})`;
  let statement = prepared.get(sql);
  if (statement === undefined) prepared.set(sql, (statement = db.prepare(sql)));
  statements++;
  return statement.all(...ids) as T[];
}

function masksOf(query: URLSearchParams): Array<[Uint8Array, Uint8Array]> {
  const masks: Array<[Uint8Array, Uint8Array]> = [];
  for (const filter of FILTERS) {
    const values = query.get(filter);
    if (!values) continue;
    const mask = new Uint8Array(64);
    for (const value of values.split(',')) mask[coders[filter](value)] = 1;
    masks.push([columns[filter], mask]);
  }
  return masks;
}

/** Where the page starts: after the row whose created_at `after` names (orgsec's cursor, decoded). */
function startOf(after: string | null, ascending: boolean): number {
  if (!after) return 0;
  const [created] = (JSON.parse(Buffer.from(after, 'base64url').toString()) as { v: string[] }).v;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    const value = createdAt[ascending ? count - 1 - middle : middle]!;
    if (ascending ? value <= created! : value >= created!) low = middle + 1;
    else high = middle;
  }
  return low;
}

function page(query: URLSearchParams): { parts: Buffer[]; length: number } {
  const perPage = Number(query.get('per_page') ?? 30);
  const ascending = query.get('direction') === 'asc';
  const masks = masksOf(query);
  const picked: number[] = [];
  for (let k = startOf(query.get('after'), ascending); k < count && picked.length < perPage; k++) {
    const i = ascending ? count - 1 - k : k;
    if (masks.every(([column, mask]) => mask[column[i]!] === 1)) picked.push(positions[i]!);
  }
  const alerts = heldAlerts ? new Map(picked.map((p) => [p, heldAlerts.get(p)!])) : new Map(byIds<AlertParts & { position: number }>('alert_json', 'position', 'position, own, advisory_id, repo_id', picked).map((a) => [a.position, a]));
  const advisoryIds = [...new Set([...alerts.values()].map((a) => a.advisory_id))];
  const advisories = heldAdvisories ?? new Map(byIds<{ id: number; json: Buffer }>('advisory_json', 'id', 'id, json', advisoryIds).map((a) => [a.id, a.json]));
  const parts: Buffer[] = [Buffer.from('[')];
  picked.forEach((position, n) => {
    const { own, advisory_id, repo_id } = alerts.get(position)!;
    const a = own.indexOf(ADVISORY_MARK);
    const r = own.indexOf(REPOSITORY_MARK);
    if (n > 0) parts.push(Buffer.from(','));
    parts.push(own.subarray(0, a), advisories.get(advisory_id)!, own.subarray(a + ADVISORY_MARK.length, r), repositories.get(repo_id)!, own.subarray(r + REPOSITORY_MARK.length));
  });
  parts.push(Buffer.from(']'));
  return { parts, length: parts.reduce((n, p) => n + p.length, 0) };
}

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bound');
    if (url.pathname === '/metrics') {
      res.end(`orgsec_db_query_duration_seconds_count ${statements}\norgsec_http_requests_total ${requests}\n`);
      return;
    }
    requests++;
    const { parts, length } = page(url.searchParams);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
    res.end(Buffer.concat(parts, length));
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
