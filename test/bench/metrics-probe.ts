// SQL statements per request, from orgsec's own GET /metrics (Prometheus text): the count of
// the database query histogram (knex's query events, and any statement that bypasses knex but
// is counted there too) over the count of HTTP requests, both summed over every label set.

export interface ServerCounters {
  sqlStatements: number;
  httpRequests: number;
  /** Seconds of dependency snapshot work (orgsec_snapshot_work_seconds_total). */
  snapshotWorkSeconds: number;
  /** Seconds of garbage collection on the server's thread (nodejs_gc_duration_seconds_sum, every kind). */
  gcSeconds: number;
}

function sumOf(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

export async function readCounters(baseUrl: string): Promise<ServerCounters> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  const text = await response.text();
  return {
    sqlStatements: sumOf(text, 'orgsec_db_query_duration_seconds_count'), httpRequests: sumOf(text, 'orgsec_http_requests_total'),
    snapshotWorkSeconds: sumOf(text, 'orgsec_snapshot_work_seconds_total'), gcSeconds: sumOf(text, 'nodejs_gc_duration_seconds_sum'),
  };
}

/** Each memory cache's bytes and limit (orgsec_cache_bytes, orgsec_cache_limit_bytes), by name. */
export async function readCaches(baseUrl: string): Promise<Array<{ name: string; bytes: number; limitBytes: number }>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const caches = new Map<string, { name: string; bytes: number; limitBytes: number }>();
  for (const [, metric, name, value] of text.matchAll(/^orgsec_cache_(bytes|limit_bytes)\{cache="([^"]+)"\} (\S+)$/gm)) {
    const cache = caches.get(name!) ?? caches.set(name!, { name: name!, bytes: 0, limitBytes: 0 }).get(name!)!;
    cache[metric === 'bytes' ? 'bytes' : 'limitBytes'] = Number(value);
  }
  return [...caches.values()];
}

export function sqlPerRequest(before: Pick<ServerCounters, 'sqlStatements' | 'httpRequests'>, after: Pick<ServerCounters, 'sqlStatements' | 'httpRequests'>): number | undefined {
  const requests = after.httpRequests - before.httpRequests;
  return requests > 0 ? (after.sqlStatements - before.sqlStatements) / requests : undefined;
}
