import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../../graphql/context';
import { parseArgs } from '../../../graphql/arguments';
import { toConnection, type Connection } from '../../../graphql/relay';
import { advisoryCursor } from '../advisories.cursors';
import { ADVISORY_INPUT, advisoryPath } from '../advisories.schemas';
import { advisoryListRequestOf, SecurityAdvisoryArgs } from './advisory.args';
import { SecurityAdvisory, SecurityAdvisoryConnection, toSecurityAdvisory } from './advisory.types';

/** The global advisory database on Query: public reference data, with or without a token. */
@Resolver()
export class SecurityAdvisoryQueries {
  @Query(() => SecurityAdvisory, { nullable: true, description: 'A global security advisory by its identifier; null with NOT_FOUND when there is none.' })
  async securityAdvisory(@Arg('id', { description: 'The advisory\'s identifier (its svcsaId), as in GET /advisories/{svcsa_id}.' }) id: string, @Ctx() ctx: GraphQLContext): Promise<SecurityAdvisory> {
    const { svcsa_id: svcsaId } = parseArgs(advisoryPath, { svcsa_id: id }, { ...ADVISORY_INPUT, nameField: () => 'id' });
    return toSecurityAdvisory(ctx.apiBase, await ctx.services.advisories.get(ctx.principal, svcsaId));
  }

  @Query(() => SecurityAdvisoryConnection, { description: 'The global advisory database, filtered as GET /advisories filters it.' })
  async securityAdvisories(@Args() args: SecurityAdvisoryArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<SecurityAdvisory>> {
    const request = advisoryListRequestOf(args);
    const page = await ctx.services.advisories.list(ctx.principal, request);
    const items = request.perPage === 0 ? [] : page.items;
    return toConnection({ ...page, items }, (a) => advisoryCursor(a, request.sort, request.direction), (a) => toSecurityAdvisory(ctx.apiBase, a), page.total ?? items.length);
  }
}
