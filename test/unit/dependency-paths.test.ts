import type { MatchableRange } from '../../src/modules/advisories/affects-matching';
import { compileAffected } from '../../src/modules/advisories/versions';
import type { CurrentDependency } from '../../src/modules/dependency-graph/dependency-graph.types';
import { packageOfPurl } from '../../src/modules/dependency-graph/package-url';
import { alertDependencyPaths, isAlertPackage } from '../../src/modules/dependency-paths/alert-paths';
import { shortestPaths, type GraphNode } from '../../src/modules/dependency-paths/shortest-paths';
import { MinHeap } from '../../src/shared/min-heap';

// Issue 39: the paths from a manifest's direct dependencies to a vulnerable package, shortest
// first, bounded, over graphs as snapshots and SBOMs give them.

/** A graph written as `name: dependency dependency …`, a leading `*` marking a direct dependency. */
function graph(lines: string[]): GraphNode[] {
  return lines.map((line) => {
    const [head, rest = ''] = line.split(':');
    const direct = head!.trim().startsWith('*');
    const name = head!.trim().replace('*', '');
    return { packageUrl: name, relationship: direct ? 'direct' : 'indirect', dependencies: rest.split(' ').filter((d) => d !== '') };
  });
}

const named = (...targets: string[]) => (node: GraphNode) => targets.includes(node.packageUrl);
const paths = (nodes: GraphNode[], isTarget: (node: GraphNode) => boolean, limit = 10, maxSteps?: number) =>
  shortestPaths(nodes, isTarget, limit, maxSteps).map((path) => path.map((node) => node.packageUrl).join(' > '));

describe('shortestPaths', () => {
  it('answers a vulnerable direct dependency as a path of itself, and stops every path at the first vulnerable package', () => {
    expect(paths(graph(['*v: a', 'a: v2', 'v2']), named('v', 'v2'))).toEqual(['v']);
    expect(paths(graph(['*a: v', 'v: b', 'b: v2', 'v2']), named('v', 'v2'))).toEqual(['a > v']);
  });

  it('gives each path of a diamond once, ties by their package URLs node by node', () => {
    expect(paths(graph(['*top: right left', 'left: v', 'right: v', 'v']), named('v'))).toEqual(['top > left > v', 'top > right > v']);
  });

  it('lists shorter paths first whatever the order packages and dependencies were given in', () => {
    const nodes = graph(['*z: v', '*a: b', 'b: c', 'c: v', '*m: n', 'n: v', 'v']);
    expect(paths(nodes, named('v'))).toEqual(['z > v', 'm > n > v', 'a > b > c > v']);
    expect(paths([...nodes].reverse(), named('v'))).toEqual(['z > v', 'm > n > v', 'a > b > c > v']);
  });

  it('does not loop in cycles, and a path never holds a package twice', () => {
    const nodes = graph(['*a: b', 'b: c', 'c: a d', 'd: b v', 'v']);
    expect(paths(nodes, named('v'), 100)).toEqual(['a > b > c > d > v']);
    // A package depending on itself, and two depending on each other with no way out.
    expect(paths(graph(['*a: a x', 'x: y', 'y: x']), named('v'))).toEqual([]);
  });

  it('reaches several targets (two versions of the vulnerable package), each path ending at one', () => {
    const nodes = graph(['*app: lib v@1', 'lib: v@2', 'v@1', 'v@2']);
    expect(paths(nodes, named('v@1', 'v@2'))).toEqual(['app > v@1', 'app > lib > v@2']);
  });

  it('answers nothing without a direct dependency (no graph, or only indirect and unknown packages)', () => {
    expect(paths(graph(['a: v', 'v']), named('v'))).toEqual([]);
    expect(paths([{ packageUrl: 'v', relationship: 'unknown', dependencies: [] }], named('v'))).toEqual([]);
    expect(paths(graph(['*a', 'v']), named('v'))).toEqual([]);
    expect(paths([], named('v'))).toEqual([]);
  });

  it('does not follow dependencies naming package URLs absent from the manifest, and reads a package listed twice as its first listing', () => {
    expect(paths(graph(['*a: ghost v', 'v']), named('v'))).toEqual(['a > v']);
    expect(paths(graph(['*a: ghost', 'ghost2: v', 'v']), named('v'))).toEqual([]);
    expect(paths(graph(['*a: b', 'b: v', 'b: w', 'v', 'w']), named('w'))).toEqual([]);
  });

  it('answers at most `limit` paths, the shortest', () => {
    const nodes = graph(['*a: b c v', 'b: v', 'c: d', 'd: v', 'v']);
    expect(paths(nodes, named('v'), 2)).toEqual(['a > v', 'a > b > v']);
    expect(paths(nodes, named('v'), 0)).toEqual([]);
  });

  it('stops after its steps in a dense graph, answering the shortest paths found, in order', () => {
    // Every one of 12 packages depends on every other: millions of simple paths to the target.
    const names = Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const nodes: GraphNode[] = [
      ...names.map((name, i) => ({ packageUrl: name, relationship: i === 0 ? 'direct' : 'indirect', dependencies: [...names.filter((n) => n !== name), ...(i === 11 ? ['v'] : [])] })),
      { packageUrl: 'v', relationship: 'indirect', dependencies: [] },
    ];
    const all = paths(nodes, named('v'), 1_000);
    expect(all).toHaveLength(1_000);
    expect(all[0]).toBe('p00 > p11 > v');
    const lengths = all.map((path) => path.split(' > ').length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    const bounded = paths(nodes, named('v'), 1_000, 50);
    expect(bounded.length).toBeLessThan(1_000);
    expect(bounded).toEqual(all.slice(0, bounded.length));
  });

  it('answers what enumerating every simple path and sorting them would, on random graphs with cycles', () => {
    let seed = 39;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const size = 2 + Math.floor(random() * 7);
      const names = Array.from({ length: size }, (_, i) => `n${i}`);
      const nodes: GraphNode[] = names.map((name) => ({
        packageUrl: name, relationship: random() < 0.4 ? 'direct' : 'indirect', dependencies: names.filter(() => random() < 0.35),
      }));
      const targets = new Set(names.filter(() => random() < 0.3));
      const isTarget = (node: GraphNode) => targets.has(node.packageUrl);
      // Every simple path from a direct package to its first target, by length, then URLs node by node.
      const every: string[][] = [];
      const walk = (path: string[]) => {
        const last = path.at(-1)!;
        if (targets.has(last)) return void every.push(path);
        for (const next of new Set(nodes.find((n) => n.packageUrl === last)!.dependencies)) if (!path.includes(next)) walk([...path, next]);
      };
      nodes.filter((n) => n.relationship === 'direct').forEach((n) => walk([n.packageUrl]));
      every.sort((a, b) => a.length - b.length || a.join(' ').localeCompare(b.join(' ')));
      expect({ round, found: paths(nodes, isTarget, 5) }).toEqual({ round, found: every.slice(0, 5).map((path) => path.join(' > ')) });
    }
  });

  it('finds the shortest paths of a large sparse graph with few steps', () => {
    // A chain of 5,000 packages beside a shortcut: best-first goes the short way.
    const chain = Array.from({ length: 5_000 }, (_, i) => ({ packageUrl: `c${i}`, relationship: i === 0 ? 'direct' : 'indirect', dependencies: [i === 4_999 ? 'v' : `c${i + 1}`] }));
    const nodes: GraphNode[] = [...chain, { packageUrl: 's', relationship: 'direct', dependencies: ['v'] }, { packageUrl: 'v', relationship: 'indirect', dependencies: [] }];
    expect(paths(nodes, named('v'), 1, 5).map((path) => path.split(' > ').length)).toEqual([2]);
  });
});

describe('alertDependencyPaths', () => {
  let id = 1;
  const dependency = (manifestPath: string, packageUrl: string, relationship: CurrentDependency['relationship'], dependencies: string[] = []): CurrentDependency => ({
    id: id++, packageUrl, package: packageOfPurl(packageUrl), manifestName: manifestPath, manifestPath, scope: 'runtime', relationship, dependencies,
  });
  const below2: MatchableRange = { advisoryId: 1, compiled: compileAffected('npm', { ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] }) };
  const alert = { ecosystem: 'npm', packageName: 'vuln', manifestPath: 'package-lock.json' };
  const dependencies = [
    dependency('package-lock.json', 'pkg:npm/app@1.0.0', 'direct', ['pkg:npm/vuln@1.5.0', 'pkg:npm/mid@1.0.0']),
    dependency('package-lock.json', 'pkg:npm/mid@1.0.0', 'indirect', ['pkg:npm/vuln@2.1.0']),
    dependency('package-lock.json', 'pkg:npm/vuln@1.5.0', 'indirect'),
    dependency('package-lock.json', 'pkg:npm/vuln@2.1.0', 'indirect'),
    // Another manifest: its paths are not this alert's.
    dependency('web/package-lock.json', 'pkg:npm/vuln@1.0.0', 'direct'),
  ];
  const urls = (found: ReturnType<typeof alertDependencyPaths>) => found.map((p) => `${p.manifestPath}: ${p.packages.map((x) => x.packageUrl).join(' > ')}`);

  it('follows the alert\'s manifest to versions in its vulnerable range', () => {
    expect(urls(alertDependencyPaths(alert, below2, dependencies, 10))).toEqual(['package-lock.json: pkg:npm/app@1.0.0 > pkg:npm/vuln@1.5.0']);
  });

  it('takes every version of the package when the alert\'s vulnerability row is not known', () => {
    expect(urls(alertDependencyPaths(alert, undefined, dependencies, 10))).toEqual([
      'package-lock.json: pkg:npm/app@1.0.0 > pkg:npm/vuln@1.5.0', 'package-lock.json: pkg:npm/app@1.0.0 > pkg:npm/mid@1.0.0 > pkg:npm/vuln@2.1.0',
    ]);
  });

  it('keeps each package as its manifest lists it', () => {
    const [path] = alertDependencyPaths(alert, below2, dependencies, 1);
    expect(path!.packages[0]).toEqual(expect.objectContaining({ packageUrl: 'pkg:npm/app@1.0.0', package: packageOfPurl('pkg:npm/app@1.0.0'), relationship: 'direct', scope: 'runtime' }));
  });

  it('matches the package as the alert engine does: ecosystem and normalized name, a version that parses', () => {
    const pip = isAlertPackage({ ecosystem: 'pip', packageName: 'Django_Rest', manifestPath: 'x' }, undefined);
    expect(pip({ package: packageOfPurl('pkg:pypi/django-rest@1.0') })).toBe(true);
    expect(pip({ package: packageOfPurl('pkg:npm/django-rest@1.0.0') })).toBe(false);
    const npm = isAlertPackage(alert, below2);
    expect(npm({ package: packageOfPurl('pkg:npm/vuln') })).toBe(false);
    expect(npm({ package: packageOfPurl('pkg:npm/vuln@not-a-version') })).toBe(false);
    expect(isAlertPackage({ ...alert, ecosystem: 'actions' }, undefined)({ package: packageOfPurl('pkg:npm/vuln@1.0.0') })).toBe(false);
  });
});

describe('MinHeap', () => {
  it('takes items least first', () => {
    const heap = new MinHeap<number>((a, b) => a - b);
    for (const n of [5, 3, 9, 1, 1, 7, 2]) heap.push(n);
    const out: number[] = [];
    for (let n = heap.pop(); n !== undefined; n = heap.pop()) out.push(n);
    expect(out).toEqual([1, 1, 2, 3, 5, 7, 9]);
    expect(heap.size).toBe(0);
  });
});
