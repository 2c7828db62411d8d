import LinkHeader from 'http-link-header';

/** The Link header's relations as { rel: url }. */
export function linksOf(header: string | undefined): Record<string, string> {
  if (!header) return {};
  return Object.fromEntries(LinkHeader.parse(header).refs.map((ref) => [ref.rel, ref.uri]));
}

/** Path and query of an absolute URL, for supertest. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
