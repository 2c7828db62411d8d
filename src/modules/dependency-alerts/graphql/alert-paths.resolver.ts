import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { callersOf } from '../../../operations';
import type { GraphQLContext } from '../../../graphql/context';
import { parseArgs } from '../../../graphql/arguments';
import type { DependencyPath as Path, PathSources } from '../../dependency-paths/alert-paths';
import { ALERT_QUERY_INPUT, DEFAULT_DEPENDENCY_PATHS, MAX_DEPENDENCY_PATHS, pathsArgs } from '../alerts.schemas';
import { DependencyPath } from './alert-path.types';
import { DependencyAlert } from './alert.types';

/** The request's loaders as the paths' sources: a repository's dependencies read once for all its alerts. */
function loadedSources(ctx: GraphQLContext): PathSources {
  return {
    currentDependencies: (repoId) => ctx.loaders.currentDependenciesByRepoId.load(repoId),
    vulnerableRange: async (id) => (await ctx.loaders.vulnerableRangeById.load(id)) ?? undefined,
  };
}

function toDependencyPath(path: Path): DependencyPath {
  return {
    manifestPath: path.manifestPath,
    packages: path.packages.map((p) => ({
      packageUrl: p.packageUrl, ecosystem: p.package.ecosystem, name: p.package.name, version: p.package.version, relationship: p.relationship, scope: p.scope,
    })),
  };
}

@Resolver(() => DependencyAlert)
export class DependencyAlertPaths {
  @FieldResolver(() => [DependencyPath], {
    description: 'Paths from a direct dependency of the alert\'s manifest to its vulnerable package, shortest first (those of one length by their package URLs); '
      + `empty when the snapshots carried no dependency graph or the alert has no current dependency (${callersOf('listDependencyAlertPaths')}).`,
  })
  async dependencyPaths(
    @Root() alert: DependencyAlert,
    @Arg('first', () => Int, { nullable: true, defaultValue: DEFAULT_DEPENDENCY_PATHS, description: `How many paths at most (1 to ${MAX_DEPENDENCY_PATHS}).` }) first: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DependencyPath[]> {
    // An explicit null is "not given", as for every optional argument (graphql/arguments.ts).
    const { first: limit } = parseArgs(pathsArgs, { first: first ?? DEFAULT_DEPENDENCY_PATHS }, ALERT_QUERY_INPUT);
    const view = { alert: alert.record, repository: alert.repository.record };
    return (await ctx.services.dependencyAlerts.dependencyPathsOf(ctx.principal, view, limit, loadedSources(ctx))).map(toDependencyPath);
  }
}
