import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import { callersOf } from '../../../operations';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { Organization, Repository } from '../../accounts/graphql/account.types';
import { PRESET_INPUT, RULE_INPUT, orgRuleBody, orgRulePatchBody, presetsBody, repoRuleBody, repoRulePatchBody } from '../auto-triage.schemas';
import type { TriageScope } from '../auto-triage.service';
import type { TriageRule } from '../auto-triage.types';
import {
  CreateDependencyBotRuleInput, DeleteDependencyBotRuleInput, DeleteDependencyBotRulePayload, DependencyBotPresets, DependencyBotPresetsPayload,
  DependencyBotRule, DependencyBotRulePayload, type DependencyBotRuleConditions, SetDependencyBotPresetsInput, UpdateDependencyBotRuleInput,
} from './auto-triage.types';

const toRule = (rule: TriageRule): DependencyBotRule => ({ ...rule, conditions: { ...rule.conditions } });

function scopeOf(input: { owner: string; repository?: string | null }): TriageScope {
  return input.repository ? { level: 'repo', owner: input.owner, repo: input.repository } : { level: 'org', org: input.owner };
}

/** Conditions as REST's body writes them, so the REST schema checks them (and names the fields in camelCase). */
function conditionsJson(c: DependencyBotRuleConditions): Record<string, unknown> {
  const { svcsaId, cveId, hasPatch, ...lists } = givenArgs({ ...c });
  return { ...lists, ...givenArgs({ svcsa_id: svcsaId, cve_id: cveId, has_patch: hasPatch }) };
}

@Resolver(() => Organization)
export class OrganizationAutoTriage {
  @FieldResolver(() => [DependencyBotRule], { nullable: true, description: `The organization's auto-triage rules, oldest first (${callersOf('listOrgDependencyBotRules')}).` })
  async rules(@Root() org: Organization, @Ctx() ctx: GraphQLContext): Promise<DependencyBotRule[]> {
    return (await ctx.services.autoTriage.listRules(ctx.principal, { level: 'org', org: org.login })).map(toRule);
  }

  @FieldResolver(() => DependencyBotRule, { nullable: true, description: 'One of the organization\'s auto-triage rules, by id.' })
  async rule(@Root() org: Organization, @Arg('id', () => Int, { description: 'The rule\'s id.' }) id: number, @Ctx() ctx: GraphQLContext): Promise<DependencyBotRule> {
    return toRule(await ctx.services.autoTriage.getRule(ctx.principal, { level: 'org', org: org.login }, id));
  }

  @FieldResolver(() => DependencyBotPresets, { nullable: true, description: 'The organization\'s auto-triage presets.' })
  async presets(@Root() org: Organization, @Ctx() ctx: GraphQLContext): Promise<DependencyBotPresets> {
    return ctx.services.autoTriage.presets(ctx.principal, { level: 'org', org: org.login });
  }
}

@Resolver(() => Repository)
export class RepositoryAutoTriage {
  @FieldResolver(() => [DependencyBotRule], { nullable: true, description: `The repository's own auto-triage rules, oldest first (${callersOf('listRepoDependencyBotRules')}).` })
  async rules(@Root() repo: Repository, @Ctx() ctx: GraphQLContext): Promise<DependencyBotRule[]> {
    return (await ctx.services.autoTriage.listRules(ctx.principal, { level: 'repo', owner: repo.record.ownerLogin, repo: repo.name })).map(toRule);
  }

  @FieldResolver(() => DependencyBotRule, { nullable: true, description: 'One of the repository\'s own auto-triage rules, by id.' })
  async rule(@Root() repo: Repository, @Arg('id', () => Int, { description: 'The rule\'s id.' }) id: number, @Ctx() ctx: GraphQLContext): Promise<DependencyBotRule> {
    return toRule(await ctx.services.autoTriage.getRule(ctx.principal, { level: 'repo', owner: repo.record.ownerLogin, repo: repo.name }, id));
  }

  @FieldResolver(() => DependencyBotPresets, { nullable: true, description: 'The repository\'s own auto-triage presets (null: it follows the default).' })
  async presets(@Root() repo: Repository, @Ctx() ctx: GraphQLContext): Promise<DependencyBotPresets> {
    return ctx.services.autoTriage.presets(ctx.principal, { level: 'repo', owner: repo.record.ownerLogin, repo: repo.name });
  }
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class AutoTriageMutations {
  @Mutation(() => DependencyBotRulePayload, { nullable: true, description: 'Creates an auto-triage rule, as POST /orgs/{org}/dependency-bot/rules or /repos/{owner}/{repo}/dependency-bot/rules does.' })
  async createDependencyBotRule(@Arg('input', { description: 'The owner and the rule.' }) input: CreateDependencyBotRuleInput, @Ctx() ctx: GraphQLContext): Promise<DependencyBotRulePayload> {
    const scope = scopeOf(input);
    const body = { ...givenArgs({ name: input.name, enforcement: input.enforcement, action: input.action }), conditions: conditionsJson(input.conditions) };
    const rule = parseArgs(scope.level === 'org' ? orgRuleBody : repoRuleBody, body, RULE_INPUT);
    return { rule: toRule(await ctx.services.autoTriage.createRule(ctx.principal, scope, rule)) };
  }

  @Mutation(() => DependencyBotRulePayload, { nullable: true, description: 'Changes an auto-triage rule, as PATCH …/dependency-bot/rules/{rule_id} does.' })
  async updateDependencyBotRule(@Arg('input', { description: 'The rule and its changes.' }) input: UpdateDependencyBotRuleInput, @Ctx() ctx: GraphQLContext): Promise<DependencyBotRulePayload> {
    const scope = scopeOf(input);
    const body = { ...givenArgs({ name: input.name, enforcement: input.enforcement, action: input.action }), ...(input.conditions ? { conditions: conditionsJson(input.conditions) } : {}) };
    const patch = parseArgs(scope.level === 'org' ? orgRulePatchBody : repoRulePatchBody, body, RULE_INPUT);
    return { rule: toRule(await ctx.services.autoTriage.updateRule(ctx.principal, scope, input.ruleId, patch)) };
  }

  @Mutation(() => DeleteDependencyBotRulePayload, { nullable: true, description: 'Deletes an auto-triage rule, as DELETE …/dependency-bot/rules/{rule_id} does.' })
  async deleteDependencyBotRule(@Arg('input', { description: 'The rule.' }) input: DeleteDependencyBotRuleInput, @Ctx() ctx: GraphQLContext): Promise<DeleteDependencyBotRulePayload> {
    await ctx.services.autoTriage.deleteRule(ctx.principal, scopeOf(input), input.ruleId);
    return { deletedRuleId: input.ruleId };
  }

  @Mutation(() => DependencyBotPresetsPayload, { nullable: true, description: 'Sets the auto-triage presets, as PUT …/dependency-bot/presets does.' })
  async setDependencyBotPresets(@Arg('input', { description: 'The owner and the switches.' }) input: SetDependencyBotPresetsInput, @Ctx() ctx: GraphQLContext): Promise<DependencyBotPresetsPayload> {
    const presets = parseArgs(presetsBody, { low_impact_development: input.lowImpactDevelopment ?? null }, PRESET_INPUT);
    return { presets: await ctx.services.autoTriage.setPresets(ctx.principal, scopeOf(input), presets) };
  }
}
