import { MinHeap } from '../../shared/min-heap';

// The paths from a manifest's direct dependencies to a vulnerable package, as a pure function
// over the graph a snapshot or SBOM carries (each package names the package URLs it depends on).

/** A package of a dependency graph, as the search reads it. */
export interface GraphNode {
  packageUrl: string;
  /** Only `direct` packages start a path. */
  relationship: string;
  /** The package URLs it depends on, as written. */
  dependencies: readonly string[];
}

/**
 * Partial paths one search may extend to. A dense graph's paths number in the millions; past
 * this, the search answers the paths it has found, which are still the shortest, only fewer.
 */
export const MAX_SEARCH_STEPS = 20_000;

/** A path under way: its nodes (indexes) from the start, and its length plus the distance left. */
interface PartialPath {
  nodes: number[];
  priority: number;
}

/**
 * Up to `limit` simple paths (no package twice) from a direct dependency to a target, in
 * nondecreasing length; paths of one length are ordered by their package URLs, compared
 * node by node from the start (code-unit order). A path ends at the first target it reaches,
 * so a direct target is a path of one package. A dependency naming a package URL that is not
 * among `nodes` is not followed; a package URL listed twice is its first listing.
 *
 * Best-first (A*): a path's priority is its length plus the exact distance from its last
 * package to the nearest target, found once by a breadth-first search backwards from the
 * targets. That distance never overestimates what a simple path needs, so complete paths
 * come out shortest first and packages that reach no target are never entered; cycles are
 * cut by the no-package-twice rule. At most `maxSteps` paths are extended by a package.
 */
export function shortestPaths<N extends GraphNode>(nodes: readonly N[], isTarget: (node: N) => boolean, limit: number, maxSteps = MAX_SEARCH_STEPS): N[][] {
  const graph = graphOf(nodes, isTarget);
  const { edges, distance, rank } = graph;
  const byPriority = new MinHeap<PartialPath>((a, b) => a.priority - b.priority || compareRanks(a.nodes, b.nodes, rank));
  // The starts are linear in the graph, as its reading is; the steps count what grows past that.
  for (const [i, node] of graph.nodes.entries()) {
    if (node.relationship === 'direct' && distance[i] !== undefined) byPriority.push({ nodes: [i], priority: 1 + distance[i]! });
  }
  let steps = 0;
  const found: N[][] = [];
  while (found.length < limit) {
    const path = byPriority.pop();
    if (path === undefined) break;
    const last = path.nodes.at(-1)!;
    if (distance[last] === 0) {
      found.push(path.nodes.map((i) => graph.nodes[i]!));
      continue;
    }
    for (const next of edges[last]!) {
      if (path.nodes.includes(next)) continue;
      // Stopping here keeps what was found: every path still to come is no shorter.
      if (steps++ >= maxSteps) return found;
      byPriority.push({ nodes: [...path.nodes, next], priority: path.nodes.length + 1 + distance[next]! });
    }
  }
  return found;
}

/**
 * The graph as the search walks it: one node per package URL; edges to listed packages that
 * reach a target (a target's own are never followed); each node's distance to the nearest
 * target (undefined: none reachable); each node's rank in package URL order.
 */
function graphOf<N extends GraphNode>(listed: readonly N[], isTarget: (node: N) => boolean) {
  const index = new Map<string, number>();
  const nodes: N[] = [];
  for (const node of listed) {
    if (index.has(node.packageUrl)) continue;
    index.set(node.packageUrl, nodes.length);
    nodes.push(node);
  }
  const targets = nodes.map(isTarget);
  const allEdges = nodes.map((node, i) => (targets[i] ? [] : [...new Set(node.dependencies.flatMap((url) => index.get(url) ?? []))].filter((j) => j !== i)));
  const distance = distancesToTargets(allEdges, targets);
  const edges = allEdges.map((next) => next.filter((j) => distance[j] !== undefined));
  const rank: number[] = [];
  nodes.map((node, i) => ({ url: node.packageUrl, i })).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)).forEach(({ i }, position) => {
    rank[i] = position;
  });
  return { nodes, edges, distance, rank };
}

/** Edges from each node to the nearest target, by a breadth-first search along the edges reversed. */
function distancesToTargets(edges: readonly number[][], targets: readonly boolean[]): Array<number | undefined> {
  const dependents: number[][] = edges.map(() => []);
  edges.forEach((next, i) => next.forEach((j) => dependents[j]!.push(i)));
  const distance: Array<number | undefined> = targets.map((isTarget) => (isTarget ? 0 : undefined));
  const queue = targets.flatMap((isTarget, i) => (isTarget ? [i] : []));
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head]!;
    for (const dependent of dependents[at]!) {
      if (distance[dependent] !== undefined) continue;
      distance[dependent] = distance[at]! + 1;
      queue.push(dependent);
    }
  }
  return distance;
}

/** Two paths by their nodes' ranks from the start; a path before the paths it begins. */
function compareRanks(a: readonly number[], b: readonly number[], rank: readonly number[]): number {
  const shared = Math.min(a.length, b.length);
  for (let k = 0; k < shared; k++) {
    const order = rank[a[k]!]! - rank[b[k]!]!;
    if (order !== 0) return order;
  }
  return a.length - b.length;
}
