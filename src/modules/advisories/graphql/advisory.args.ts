import { ArgsType, Field } from 'type-graphql';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import { ConnectionArgs, windowOf } from '../../../graphql/relay';
import { BadRequestError } from '../../../errors/domain';
import { SortDirection } from '../../../graphql/sort-direction';
import { ADVISORY_QUERY_INPUT, advisoryListChecks, affectedPackageOf, toAdvisoryFilters } from '../advisories.schemas';
import type { AdvisoryListRequest, EpssFilter } from '../advisories.types';
import { AdvisoryType, Ecosystem, SecurityAdvisorySort, Severity } from './advisory.enums';
import { EpssFilter as EpssFilterInput } from './advisory.types';
import { timeFilterText } from '../time-filter';

// securityAdvisories(...): the REST list's filters as arguments, checked by the same domain rules.

const COMPARISONS = { equals: '=', greaterThan: '>', lessThan: '<', atLeast: '>=', atMost: '<=' } as const;

/** The EPSS input object as the domain's filter: one comparison, or atLeast and atMost for a range. */
export function epssFilterOf(input: EpssFilterInput): EpssFilter {
  const given = (Object.keys(COMPARISONS) as Array<keyof typeof COMPARISONS>).filter((key) => input[key] !== undefined && input[key] !== null);
  if (given.length === 2 && input.atLeast != null && input.atMost != null) return { op: 'between', from: input.atLeast, to: input.atMost };
  const [key] = given;
  if (given.length !== 1 || key === undefined) throw new BadRequestError('epssPercentage takes one comparison, or atLeast and atMost together.');
  return { op: COMPARISONS[key], value: input[key]! };
}

@ArgsType()
export class SecurityAdvisoryArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Only this advisory.' }) svcsaId?: string;
  @Field(() => [AdvisoryType], { nullable: true, description: 'Any of these types (default: all but MALWARE).' }) types?: AdvisoryType[];
  @Field(() => String, { nullable: true, description: 'Only advisories of this CVE.' }) cveId?: string;
  @Field(() => Ecosystem, { nullable: true, description: 'Only advisories of packages in this ecosystem (and `affects` looked for there).' }) ecosystem?: Ecosystem;
  @Field(() => Severity, { nullable: true, description: 'Only this severity.' }) severity?: Severity;
  @Field(() => [String], { nullable: true, description: 'Any of these CWEs (79 or CWE-79).' }) cwes?: string[];
  @Field({ nullable: true, description: 'Only withdrawn advisories (true) or only others (false).' }) isWithdrawn?: boolean;
  @Field(() => [String], { nullable: true, description: 'Advisories affecting any of these `package` or `package@version` values (at most 1,000).' }) affects?: string[];
  @Field(() => String, { nullable: true, description: `Published: ${timeFilterText}.` }) published?: string;
  @Field(() => String, { nullable: true, description: `Updated: ${timeFilterText}.` }) updated?: string;
  @Field(() => String, { nullable: true, description: `Published or updated: ${timeFilterText}.` }) modified?: string;
  @Field(() => EpssFilterInput, { nullable: true, description: 'A condition on the EPSS percentage.' }) epssPercentage?: EpssFilterInput;
  @Field(() => EpssFilterInput, { nullable: true, description: 'A condition on the EPSS percentile.' }) epssPercentile?: EpssFilterInput;
  @Field(() => SecurityAdvisorySort, { defaultValue: SecurityAdvisorySort.PUBLISHED, description: 'The order.' }) sort!: SecurityAdvisorySort;
  @Field(() => SortDirection, { defaultValue: SortDirection.DESC, description: 'The direction.' }) direction!: SortDirection;
}

/** The arguments as the domain's list request, checked by the same rules as REST's query. */
export function advisoryListRequestOf(args: SecurityAdvisoryArgs): AdvisoryListRequest {
  const window = windowOf(args);
  const { types, affects, epssPercentage, epssPercentile } = args;
  const input = givenArgs({
    svcsaId: args.svcsaId, cveId: args.cveId, ecosystem: args.ecosystem, severity: args.severity, cwes: args.cwes, isWithdrawn: args.isWithdrawn,
    published: args.published, updated: args.updated, modified: args.modified,
    // An empty list filters nothing, as an absent REST parameter.
    types: types && types.length > 0 ? types : undefined,
    affects: affects && affects.length > 0 ? affects.map(affectedPackageOf) : undefined,
    epssPercentage: epssPercentage ? epssFilterOf(epssPercentage) : undefined,
    epssPercentile: epssPercentile ? epssFilterOf(epssPercentile) : undefined,
  });
  const filters = toAdvisoryFilters(parseArgs(advisoryListChecks, input, ADVISORY_QUERY_INPUT));
  return { filters, sort: args.sort, direction: args.direction, perPage: window.perPage, after: window.after, before: window.before, fromEnd: window.fromEnd, withTotal: true };
}
