import { API_V3_PATH } from '../http/api-base';
import type { TokenDeclaration, World } from '../modules/world/world.schema';
import { describeToken } from './token-abilities';

// What `orgsec serve` prints once it listens: every URL a user needs, and with --demo each
// demo token with what it can do. Columns are aligned so the lines read as a table.

interface Endpoint {
  label: string;
  path: string;
  note?: string;
}

/** The URLs of a running server; the explorers only when they are on (GRAPHQL_EXPLORER). */
export function endpointsOf({ isExplorerOn }: { isExplorerOn: boolean }): Endpoint[] {
  return [
    { label: 'Start here', path: '/', note: 'the API root: links to everything below' },
    { label: 'REST API', path: '/orgs/{org}/organization-roles', note: `and the other paths; also under ${API_V3_PATH}` },
    { label: 'GraphQL', path: '/graphql', ...(isExplorerOn ? { note: 'the Apollo Sandbox in a browser' } : {}) },
    ...(isExplorerOn ? [{ label: 'GraphiQL', path: '/graphiql' }] : []),
    { label: 'API docs', path: '/docs' },
    { label: 'OpenAPI', path: '/openapi.json' },
    { label: 'Health', path: '/healthz' },
    { label: 'Metrics', path: '/metrics', note: 'Prometheus' },
  ];
}

/** Rows padded to the widest cell of each column but the last. */
export function alignColumns(rows: ReadonlyArray<readonly string[]>, indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.slice(0, -1).forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  return rows.map((row) => indent + row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd());
}

export function endpointLines(url: string, options: { isExplorerOn: boolean }): string[] {
  return alignColumns(endpointsOf(options).map((e) => [e.label, `${url}${e.path}`, e.note ?? '']));
}

/** Past this many columns a description wraps, under its own start. */
const LINE_WIDTH = 100;

/** Each token with a value: the token and who it acts as, then what it can do, wrapped. */
export function demoTokenLines(world: World): string[] {
  const tokens = world.tokens.filter((t): t is TokenDeclaration & { token: string } => t.token !== undefined);
  const width = Math.max(...tokens.map((t) => t.token.length));
  const indent = ' '.repeat(2 + width + 2);
  return tokens.flatMap((t) => {
    const { who, can } = describeToken(t, world);
    const [first = '', ...rest] = [...wrap(who, LINE_WIDTH - indent.length), ...wrap(can, LINE_WIDTH - indent.length)];
    return [`  ${t.token.padEnd(width)}  ${first}`, ...rest.map((line) => indent + line)];
  });
}

/** Word wrap; a word longer than the width keeps its own line. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}
