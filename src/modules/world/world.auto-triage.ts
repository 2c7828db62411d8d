import { canonicalJson } from '../../shared/canonical-json';
import type { AlertReevaluation } from '../alert-engine/alert-reevaluation';
import { MAX_ORG_RULES, MAX_REPO_RULES, ruleInputOf } from '../auto-triage/auto-triage.schemas';
import type { AutoTriageStore } from '../auto-triage/auto-triage.store';
import type { RuleOwner } from '../auto-triage/auto-triage.types';
import type { SectionContext } from './world.accounts';
import { fail } from './world.support';
import type { World } from './world.schema';

type Owned = { org?: string | undefined; repository?: string | undefined };

/** The owner an entry names (the schema made sure it names exactly one). */
async function ownerOf(ctx: SectionContext, entry: string, declared: Owned): Promise<RuleOwner> {
  if (declared.org !== undefined) return { kind: 'org', orgId: (await ctx.refs.org(entry, declared.org)).id };
  return { kind: 'repo', repoId: (await ctx.refs.repo(entry, declared.repository!)).id };
}

/**
 * `dependency_bot_rules`: a rule is known by its owner and name, so loading a world twice
 * changes nothing (a declared rule updates the one of that name). The API's limits hold.
 */
async function loadDependencyBotRules(ctx: SectionContext, rules: World['dependency_bot_rules'], store: AutoTriageStore): Promise<void> {
  for (const [i, { org, repository, ...body }] of rules.entries()) {
    const entry = `dependency_bot_rules[${i}]`;
    const owner = await ownerOf(ctx, entry, { org, repository });
    const input = ruleInputOf(body);
    const existing = (await store.listRules(ctx.trx, owner)).find((r) => r.name === input.name);
    if (existing) {
      // Unchanged, it is left alone (its updated_at too): loading a world twice changes nothing.
      const same = existing.enforcement === input.enforcement && existing.action === input.action
        && canonicalJson(existing.conditions) === canonicalJson(input.conditions);
      if (!same) await store.updateRule(ctx.trx, existing, input, ctx.now);
      continue;
    }
    const max = owner.kind === 'org' ? MAX_ORG_RULES : MAX_REPO_RULES;
    if ((await store.lockAndCountRules(ctx.trx, owner)) >= max) {
      fail(entry, `${org !== undefined ? `organization "${org}"` : `repository "${repository}"`} would have more than ${max} rules`);
    }
    await store.insertRule(ctx.trx, owner, input, ctx.now);
  }
}

/**
 * Both auto-triage sections, then the alerts of every repository they reach re-evaluated in the
 * load's transaction, as the API's writes do.
 */
export async function loadAutoTriage(ctx: SectionContext, world: Pick<World, 'dependency_bot_rules' | 'dependency_bot_presets'>, store: AutoTriageStore, reevaluation: AlertReevaluation): Promise<void> {
  await loadDependencyBotRules(ctx, world.dependency_bot_rules, store);
  await loadDependencyBotPresets(ctx, world.dependency_bot_presets, store);
  const repoIds = new Set<number>();
  for (const declared of [...world.dependency_bot_rules, ...world.dependency_bot_presets]) {
    const owner = await ownerOf(ctx, 'dependency_bot_rules', declared); // resolved above: never fails here
    for (const id of owner.kind === 'repo' ? [owner.repoId] : await store.repoIdsOfOrg(ctx.trx, owner.orgId)) repoIds.add(id);
  }
  if (repoIds.size > 0) await reevaluation.repositories(ctx.trx, [...repoIds].sort((a, b) => a - b), ctx.now);
}

/** `dependency_bot_presets`: each entry sets its owner's switches. */
async function loadDependencyBotPresets(ctx: SectionContext, presets: World['dependency_bot_presets'], store: AutoTriageStore): Promise<void> {
  for (const [i, p] of presets.entries()) {
    const owner = await ownerOf(ctx, `dependency_bot_presets[${i}]`, p);
    await store.setPresets(ctx.trx, owner, { lowImpactDevelopment: p.low_impact_development });
  }
}
