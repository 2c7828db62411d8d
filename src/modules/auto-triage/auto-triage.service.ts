import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { NotFoundError, ValidationError } from '../../errors/domain';
import type { Executor } from '../../database/transaction';
import { withTransaction } from '../../database/transaction';
import type { OperationName } from '../../operations';
import { nowTimestamp } from '../../shared/time';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import type { AlertReevaluation } from '../alert-engine/alert-reevaluation';
import { MAX_ORG_RULES, MAX_REPO_RULES } from './auto-triage.schemas';
import type { AutoTriageStore } from './auto-triage.store';
import type { PresetSettings, RuleInput, RuleOwner, RulePatch, TriageRule } from './auto-triage.types';
import { actorOf } from '../audit-log/audit-actors';
import { changedFields } from '../audit-log/audit-changes';
import type { AuditChange } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';

/** Which rules or presets a request names: an organization's, or a repository's. */
export type TriageScope = { level: 'org'; org: string } | { level: 'repo'; owner: string; repo: string };

export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete' | 'getPresets' | 'setPresets';

/** The catalogue operation each verb is at each level: the one authorizing it. */
export const TRIAGE_OPERATIONS: Record<TriageScope['level'], Record<Verb, OperationName>> = {
  org: {
    list: 'listOrgDependencyBotRules', get: 'getOrgDependencyBotRule', create: 'createOrgDependencyBotRule', update: 'updateOrgDependencyBotRule',
    delete: 'deleteOrgDependencyBotRule', getPresets: 'getOrgDependencyBotPresets', setPresets: 'setOrgDependencyBotPresets',
  },
  repo: {
    list: 'listRepoDependencyBotRules', get: 'getRepoDependencyBotRule', create: 'createRepoDependencyBotRule', update: 'updateRepoDependencyBotRule',
    delete: 'deleteRepoDependencyBotRule', getPresets: 'getRepoDependencyBotPresets', setPresets: 'setRepoDependencyBotPresets',
  },
};

const LIMIT: Record<TriageScope['level'], { max: number; sentence: string }> = {
  org: { max: MAX_ORG_RULES, sentence: `An organization can have at most ${MAX_ORG_RULES} auto-triage rules.` },
  repo: { max: MAX_REPO_RULES, sentence: `A repository can have at most ${MAX_REPO_RULES} auto-triage rules.` },
};

/**
 * Interfaces.md Part 2 "Auto-triage rules": custom rules and presets of organizations and
 * repositories. Every write re-evaluates the repositories it reaches in its own transaction, so
 * the next read of their alerts sees it.
 */
export class AutoTriageService {
  constructor(private readonly deps: { db: Knex; lookups: AuthorizedLookups; store: AutoTriageStore; reevaluation: AlertReevaluation; audit: AuditRecorder }) {}

  async listRules(principal: Principal, scope: TriageScope): Promise<TriageRule[]> {
    const { owner } = await this.ownerOf(this.deps.db, principal, scope, 'list');
    return this.deps.store.listRules(this.deps.db, owner);
  }

  async getRule(principal: Principal, scope: TriageScope, id: number): Promise<TriageRule> {
    const { owner } = await this.ownerOf(this.deps.db, principal, scope, 'get');
    return this.ruleOf(this.deps.db, owner, id);
  }

  async createRule(principal: Principal, scope: TriageScope, input: RuleInput): Promise<TriageRule> {
    return this.write(principal, scope, 'create', async (trx, owner, now, record) => {
      if ((await this.deps.store.lockAndCountRules(trx, owner)) >= LIMIT[scope.level].max) throw new ValidationError(LIMIT[scope.level].sentence);
      const rule = await this.deps.store.insertRule(trx, owner, input, now);
      record({ action: 'dependency_bot_rule.create', operation: 'create', data: { rule_id: rule.id, ...ruleFields(rule) } });
      return rule;
    });
  }

  async updateRule(principal: Principal, scope: TriageScope, id: number, patch: RulePatch): Promise<TriageRule> {
    return this.write(principal, scope, 'update', async (trx, owner, now, record) => {
      const before = await this.ruleOf(trx, owner, id);
      const after = await this.deps.store.updateRule(trx, before, patch, now);
      const changes = changedFields(ruleFields(before), ruleFields(after));
      if (changes !== undefined) record({ action: 'dependency_bot_rule.update', operation: 'modify', data: { rule_id: id, name: after.name, changes } });
      return after;
    });
  }

  async deleteRule(principal: Principal, scope: TriageScope, id: number): Promise<void> {
    await this.write(principal, scope, 'delete', async (trx, owner, _now, record) => {
      const rule = await this.ruleOf(trx, owner, id);
      await this.deps.store.deleteRule(trx, rule.id);
      record({ action: 'dependency_bot_rule.destroy', operation: 'remove', data: { rule_id: rule.id, ...ruleFields(rule) } });
    });
  }

  async presets(principal: Principal, scope: TriageScope): Promise<PresetSettings> {
    const owner = await this.ownerOf(this.deps.db, principal, scope, 'getPresets');
    return this.deps.store.presets(this.deps.db, owner.owner);
  }

  async setPresets(principal: Principal, scope: TriageScope, presets: PresetSettings): Promise<PresetSettings> {
    return this.write(principal, scope, 'setPresets', async (trx, owner, _now, record) => {
      const before = await this.deps.store.presets(trx, owner);
      await this.deps.store.setPresets(trx, owner, presets);
      const changes = changedFields({ low_impact_development: before.lowImpactDevelopment }, { low_impact_development: presets.lowImpactDevelopment });
      if (changes !== undefined) record({ action: 'dependency_bot_presets.update', operation: 'modify', data: { changes } });
      return presets;
    });
  }

  /**
   * A write: authorized, done, recorded in the audit log (what `work` records, of the
   * organization or repository it belongs to) and the alerts of every repository it reaches
   * re-evaluated, in one transaction.
   */
  private async write<T>(
    principal: Principal, scope: TriageScope, verb: Verb, work: (trx: Knex.Transaction, owner: RuleOwner, now: string, record: (change: AuditChange) => void) => Promise<T>,
  ): Promise<T> {
    return withTransaction(this.deps.db, async (trx) => {
      const { owner, target } = await this.ownerOf(trx, principal, scope, verb);
      const now = nowTimestamp();
      const changes: AuditChange[] = [];
      const result = await work(trx, owner, now, (change) => changes.push({ ...change, ...target }));
      await this.deps.audit.record(trx, actorOf(principal), changes);
      const repoIds = owner.kind === 'repo' ? [owner.repoId] : await this.deps.store.repoIdsOfOrg(trx, owner.orgId);
      await this.deps.reevaluation.repositories(trx, repoIds, now);
      return result;
    });
  }

  /** The rules' owner, and what the audit log names it by. */
  private async ownerOf(db: Executor, principal: Principal, scope: TriageScope, verb: Verb): Promise<{ owner: RuleOwner; target: Pick<AuditChange, 'org' | 'repo'> }> {
    const operation = TRIAGE_OPERATIONS[scope.level][verb];
    if (scope.level === 'org') {
      const org = await this.deps.lookups.org(db, principal, operation, scope.org);
      return { owner: { kind: 'org', orgId: org.id }, target: { org } };
    }
    const repo = await this.deps.lookups.repo(db, principal, operation, scope.owner, scope.repo);
    return { owner: { kind: 'repo', repoId: repo.id }, target: { repo } };
  }

  /** A rule of this owner; a rule of another organization or repository answers as a missing one. */
  private async ruleOf(db: Executor, owner: RuleOwner, id: number): Promise<TriageRule> {
    const rule = await this.deps.store.findRule(db, owner, id);
    if (!rule) throw new NotFoundError();
    return rule;
  }
}

/** A rule's fields as the API names them (its conditions as stored), for the audit log. */
function ruleFields(rule: TriageRule): Record<string, unknown> {
  // `rule_action`: a record's `action` is its own.
  return { name: rule.name, enforcement: rule.enforcement, rule_action: rule.action, conditions: rule.conditions };
}
