import type { Knex } from 'knex';
import { lockForUpdate, toBoolean } from '../../database/dialect';
import type { Executor } from '../../database/transaction';
import { parseJsonColumn, toJsonColumn } from '../../shared/json';
import type { PresetSettings, RuleConditions, RuleInput, RuleOwner, RulePatch, TriageRule } from './auto-triage.types';

// Rules and presets of organizations and repositories (db/migrations/20261127060000). A row
// belongs to one owner: org_id or repo_id.

const RULE_COLUMNS = ['id', 'org_id', 'repo_id', 'name', 'enforcement', 'conditions', 'action', 'created_at', 'updated_at'];

/** Repository ids per policy read: bounded bindings per statement on both dialects. */
const POLICY_CHUNK = 500;

type Row = Record<string, any>;

function ownerColumn(owner: RuleOwner): { org_id: number } | { repo_id: number } {
  return owner.kind === 'org' ? { org_id: owner.orgId } : { repo_id: owner.repoId };
}

function ruleOfRow(row: Row): TriageRule {
  return {
    id: Number(row.id),
    name: row.name,
    enforcement: row.enforcement,
    conditions: parseJsonColumn<RuleConditions>(row.conditions, {}),
    action: row.action,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function presetOfColumn(value: unknown): boolean | null {
  return value === null || value === undefined ? null : toBoolean(value);
}

/** What one repository's triage policy is built from. */
export interface PolicySource {
  repoId: number;
  isPrivate: boolean;
  repoPreset: boolean | null;
  orgPreset: boolean | null;
  /** The owning organization's rules (none for a user-owned repository), by id. */
  orgRules: TriageRule[];
  /** The repository's own rules, by id. */
  repoRules: TriageRule[];
}

export class AutoTriageStore {
  async listRules(db: Executor, owner: RuleOwner): Promise<TriageRule[]> {
    return (await db('dependency_bot_rules').where(ownerColumn(owner)).orderBy('id').select(RULE_COLUMNS)).map(ruleOfRow);
  }

  async findRule(db: Executor, owner: RuleOwner, id: number): Promise<TriageRule | undefined> {
    const row = await db('dependency_bot_rules').where({ ...ownerColumn(owner), id }).first(RULE_COLUMNS);
    return row ? ruleOfRow(row) : undefined;
  }

  /**
   * Locks the owner's row until the transaction ends and counts its rules: two creates at once
   * (two instances on PostgreSQL) count one after the other, so the limit holds.
   */
  async lockAndCountRules(trx: Knex.Transaction, owner: RuleOwner): Promise<number> {
    const ownerRow = owner.kind === 'org'
      ? trx('organizations').where('account_id', owner.orgId).select('account_id')
      : trx('repositories').where('id', owner.repoId).select('id');
    await lockForUpdate(ownerRow);
    const row = await trx('dependency_bot_rules').where(ownerColumn(owner)).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  async insertRule(trx: Knex.Transaction, owner: RuleOwner, input: RuleInput, now: string): Promise<TriageRule> {
    const [row] = await trx('dependency_bot_rules')
      .insert({
        ...ownerColumn(owner), name: input.name, enforcement: input.enforcement, conditions: toJsonColumn(input.conditions),
        action: input.action, created_at: now, updated_at: now,
      })
      .returning(RULE_COLUMNS);
    return ruleOfRow(row);
  }

  async updateRule(trx: Knex.Transaction, rule: TriageRule, patch: RulePatch, now: string): Promise<TriageRule> {
    const next = { ...rule, ...patch, updatedAt: now };
    await trx('dependency_bot_rules').where('id', rule.id).update({
      name: next.name, enforcement: next.enforcement, conditions: toJsonColumn(next.conditions), action: next.action, updated_at: now,
    });
    return next;
  }

  async deleteRule(trx: Knex.Transaction, id: number): Promise<void> {
    await trx('dependency_bot_rules').where('id', id).delete();
  }

  async presets(db: Executor, owner: RuleOwner): Promise<PresetSettings> {
    const row = await db('dependency_bot_presets').where(ownerColumn(owner)).first('low_impact_development');
    return { lowImpactDevelopment: presetOfColumn(row?.low_impact_development) };
  }

  /** Stores the presets; `null` (follow the default) is no row, as before any was set. */
  async setPresets(trx: Knex.Transaction, owner: RuleOwner, presets: PresetSettings): Promise<void> {
    const column = owner.kind === 'org' ? 'org_id' : 'repo_id';
    if (presets.lowImpactDevelopment === null) {
      await trx('dependency_bot_presets').where(ownerColumn(owner)).delete();
      return;
    }
    await trx('dependency_bot_presets')
      .insert({ ...ownerColumn(owner), low_impact_development: presets.lowImpactDevelopment })
      .onConflict(column)
      .merge(['low_impact_development']);
  }

  /** The repositories of an organization: what an organization's rule or preset reaches. */
  async repoIdsOfOrg(db: Executor, orgId: number): Promise<number[]> {
    return (await db('repositories').where('owner_id', orgId).orderBy('id').select('id')).map((r) => Number(r.id));
  }

  /**
   * Everything the policies of these repositories depend on, in two statements per chunk of
   * ids (never one per repository): the repositories with both levels' presets, then every
   * rule of theirs or of their owners.
   */
  async policySources(db: Executor, repoIds: readonly number[]): Promise<PolicySource[]> {
    const sources: PolicySource[] = [];
    for (let i = 0; i < repoIds.length; i += POLICY_CHUNK) {
      const ids = repoIds.slice(i, i + POLICY_CHUNK);
      const repos = await db('repositories as r')
        .leftJoin('dependency_bot_presets as rp', 'rp.repo_id', 'r.id')
        .leftJoin('dependency_bot_presets as op', 'op.org_id', 'r.owner_id')
        .whereIn('r.id', ids)
        .select('r.id', 'r.owner_id', 'r.private', 'rp.low_impact_development as repo_preset', 'op.low_impact_development as org_preset');
      const rules = await db('dependency_bot_rules')
        .whereIn('repo_id', ids)
        .orWhereIn('org_id', (q) => q.select('owner_id').from('repositories').whereIn('id', ids))
        .orderBy('id')
        .select(RULE_COLUMNS);
      for (const repo of repos) {
        const repoId = Number(repo.id);
        const ownerId = Number(repo.owner_id);
        sources.push({
          repoId,
          isPrivate: toBoolean(repo.private),
          repoPreset: presetOfColumn(repo.repo_preset),
          orgPreset: presetOfColumn(repo.org_preset),
          orgRules: rules.filter((r) => r.org_id !== null && Number(r.org_id) === ownerId).map(ruleOfRow),
          repoRules: rules.filter((r) => r.repo_id !== null && Number(r.repo_id) === repoId).map(ruleOfRow),
        });
      }
    }
    return sources;
  }
}
