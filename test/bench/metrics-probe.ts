// SQL statements per request, from orgsec's own GET /metrics (Prometheus text): the count of
// the database query histogram (knex's query events, and any statement that bypasses knex but
// is counted there too) over the count of HTTP requests, both summed over every label set.

export interface ServerCounters {
  sqlStatements: number;
  httpRequests: number;
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
  return { sqlStatements: sumOf(text, 'orgsec_db_query_duration_seconds_count'), httpRequests: sumOf(text, 'orgsec_http_requests_total') };
}

export function sqlPerRequest(before: ServerCounters, after: ServerCounters): number | undefined {
  const requests = after.httpRequests - before.httpRequests;
  return requests > 0 ? (after.sqlStatements - before.sqlStatements) / requests : undefined;
}
