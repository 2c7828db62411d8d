import { Arg, Args, Ctx, FieldResolver, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import { BadRequestError } from '../../../errors/domain';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { ConnectionArgs, toConnection, windowOf, type Connection } from '../../../graphql/relay';
import { parseInput } from '../../../http/validate';
import { Repository } from '../../accounts/graphql/account.types';
import type { CurrentDependency } from '../dependency-graph.types';
import { SNAPSHOT_INPUT, snapshotBody } from '../dependency-graph.schemas';
import { RepositoryDependency, RepositoryDependencyConnection, SubmitDependencySnapshotInput, SubmitDependencySnapshotPayload } from './dependency.types';

const cursorOf = (d: CurrentDependency) => Buffer.from(`dependency:${d.id}`).toString('base64url');

/** The position just after (or before) a cursor's item; a cursor of no item is a clear error. */
function positionOf(items: readonly CurrentDependency[], cursor: string): number {
  const id = /^dependency:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString())?.[1];
  const at = id === undefined ? -1 : items.findIndex((d) => d.id === Number(id));
  if (at < 0) throw new BadRequestError('`after` or `before` is not a cursor of this list.');
  return at;
}

/** A page of the current set, which is read whole (bounded by the snapshot limits). */
function pageOf(items: readonly CurrentDependency[], args: ConnectionArgs) {
  const window = windowOf(args);
  const start = window.after === undefined ? 0 : positionOf(items, window.after) + 1;
  const end = window.before === undefined ? items.length : positionOf(items, window.before);
  const from = window.fromEnd ? Math.max(start, end - window.perPage) : start;
  const to = window.fromEnd ? end : Math.min(end, start + window.perPage);
  return { items: items.slice(from, to), next: to < items.length ? 'more' : undefined, prev: from > 0 ? 'more' : undefined };
}

@Resolver(() => Repository)
export class RepositoryDependencies {
  @FieldResolver(() => RepositoryDependencyConnection, { nullable: true, description: 'The current dependencies (latest applied snapshot per job correlator and detector, manifests merged); the same access as the SBOM.' })
  async dependencies(@Root() repo: Repository, @Args() args: ConnectionArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<RepositoryDependency>> {
    const current = await ctx.services.dependencyGraph.current(ctx.principal, repo.record.ownerLogin, repo.name);
    return toConnection(pageOf(current.dependencies, args), cursorOf, (d) => ({
      package: { ecosystem: d.package.ecosystem, name: d.package.name }, version: d.package.version, packageUrl: d.packageUrl,
      manifestPath: d.manifestPath, scope: d.scope, relationship: d.relationship,
    }), current.dependencies.length);
  }
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class DependencySnapshotMutations {
  @Mutation(() => SubmitDependencySnapshotPayload, { nullable: true, description: 'Submits a dependency snapshot, as POST /repos/{owner}/{repo}/dependency-graph/snapshots does.' })
  async submitDependencySnapshot(@Arg('input', { description: 'The repository and snapshot.' }) input: SubmitDependencySnapshotInput, @Ctx() ctx: GraphQLContext): Promise<SubmitDependencySnapshotPayload> {
    const startedAt = performance.now();
    // The snapshot is JSON written as REST's body, so its fields keep their REST names in errors.
    const snapshot = parseInput(snapshotBody, input.snapshot, { ...SNAPSHOT_INPUT, at: 'snapshot' });
    return ctx.services.dependencyGraph.submit(ctx.principal, input.owner, input.repository, snapshot, { startedAt, countedAsOther: true });
  }
}
