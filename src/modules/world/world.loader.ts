import type { Knex } from 'knex';
import { refreshPlannerStatistics } from '../../database/planner-statistics';
import { withTransaction } from '../../database/transaction';
import { nowTimestamp } from '../../shared/time';
import { ValidationError } from '../../errors/domain';
import type { AccountsStore } from '../accounts/accounts.store';
import type { AttestationsStore } from '../attestations/attestations.store';
import type { AlertReevaluation, SnapshotEvaluation } from '../alert-engine/alert-reevaluation';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import type { SnapshotQueueStore } from '../dependency-graph/snapshot-queue.store';
import type { AdvisoriesWorldStore } from '../advisories/advisories.world-store';
import type { AlertsStore } from '../dependency-alerts/alerts.store';
import type { OrgRolesStore } from '../org-roles/org-roles.store';
import { declarationKey, type TokensService } from '../tokens/tokens.service';
import {
  loadEnterprises, loadOrganizations, loadRepositories, loadRoleAssignments, loadRoles, loadTeamRepositories, loadTeams, loadUsers,
  type SectionContext,
} from './world.accounts';
import { loadAlerts } from './world.alerts';
import { loadDependencySnapshots } from './world.dependency-graph';
import { loadAutoTriage } from './world.auto-triage';
import type { AutoTriageStore } from '../auto-triage/auto-triage.store';
import type { WebhooksStore } from '../webhooks/webhooks.store';
import { loadWebhooks } from './world.webhooks';
import type { World } from './world.schema';
import { loadAdvisories, loadAttestations, loadOidc, pruneEnterpriseInclusions } from './world.security';
import { worldSourceOf, type WorldSource } from './world.source';
import { References, WorldError, fail } from './world.support';
import { WorldSchemaError, alertsSchemaError, parseSections } from './world.validation';
import { loadAuditLog } from './world.audit-log';
import { commandActor } from '../audit-log/audit-actors';
import type { AuditLogStore } from '../audit-log/audit-log.store';
import type { AuditActor } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';

export { WorldError };

export interface GeneratedToken {
  entry: string;
  description: string;
  token: string;
}

export interface LoadSummary {
  counts: Record<string, number>;
  /** Tokens this load generated: the only time their values are shown. */
  generatedTokens: GeneratedToken[];
}

export interface LoadOptions {
  /** Empty the database first. */
  replace?: boolean;
  onProgress?: (message: string) => void;
  /** Who the load's record in the audit log names (default: the command's user, audit-actors.ts). */
  actor?: AuditActor;
}

// A load of at least this many rows refreshes PostgreSQL's statistics at once; smaller ones are
// left to autovacuum (the refresh costs a small world's load about 60 ms, mostly the VACUUM).
const BULK_WRITE_ROWS = 10_000;

// Every table a world declares, children first, for --replace. The predefined
// organization roles (org_id null) are part of the schema, not of a world.
const WORLD_TABLES = [
  'webhook_delivery_attempts', 'webhook_deliveries', 'webhooks', 'events', 'dependency_bot_rules', 'dependency_bot_presets',
  'repository_dependencies', 'repository_covered_manifests', 'repository_current_snapshots', 'dependency_snapshot_queue', 'dependency_snapshot_manifests', 'dependency_snapshots',
  'attestation_subjects', 'attestations', 'dependency_alert_assignees', 'dependency_alerts', 'advisory_vulnerabilities', 'advisories',
  'repository_oidc_subject_templates', 'organization_oidc_subject_templates', 'organization_oidc_property_inclusions',
  'enterprise_oidc_property_inclusions', 'token_repositories', 'tokens', 'organization_role_teams', 'organization_role_users',
  'team_repositories', 'repository_collaborators', 'repository_custom_property_values', 'repository_storage_records',
  'repository_deployment_records', 'repositories', 'team_members', 'teams', 'organization_custom_properties',
  'organization_members', 'organizations', 'enterprise_members', 'enterprises',
  // A replaced world's records go with it: they name its organizations by id, which the new world's may reuse.
  'audit_log',
];

/** `orgsec load`: inserts or updates a whole world by natural keys, in one transaction. */
export class WorldLoader {
  constructor(
    private readonly deps: {
      db: Knex; accounts: AccountsStore; roles: OrgRolesStore; tokens: TokensService; attestations: AttestationsStore; alerts: AlertsStore; advisories: AdvisoriesWorldStore;
      snapshots: DependencySnapshotsStore; snapshotQueue: SnapshotQueueStore; autoTriage: AutoTriageStore; alertEngine: AlertReevaluation & SnapshotEvaluation; webhooks: WebhooksStore;
      auditLog: AuditLogStore; audit: AuditRecorder;
    },
  ) {}

  /** Loads a world given whole (in-process). */
  async load(input: unknown, options: LoadOptions = {}): Promise<LoadSummary> {
    return this.loadSource(worldSourceOf(input), options);
  }

  /** Loads a world whose alerts arrive in batches (a streamed file): they are never all in memory. */
  async loadSource(source: WorldSource, options: LoadOptions = {}): Promise<LoadSummary> {
    // Parsed before the transaction (a schema problem opens none), and again by a retried one:
    // the source lets its sections go once handed over, and so does each attempt once written.
    let parsed: World | undefined = await parseSections(source);
    const progress = options.onProgress ?? (() => undefined);
    const summary = await withTransaction(this.deps.db, async (trx): Promise<LoadSummary> => {
      const world = parsed ?? (await parseSections(source));
      parsed = undefined;
      const counts = countsOf(world, source.alertCount);
      let alertsParsed = false;
      try {
        if (options.replace) {
          for (const table of WORLD_TABLES) await trx(table).delete();
          await trx('organization_roles').whereNotNull('org_id').delete();
          await trx('accounts').delete();
        }
        const ctx: SectionContext = {
          trx, refs: new References(trx, this.deps.accounts), accounts: this.deps.accounts, roles: this.deps.roles, now: nowTimestamp(),
        };
        await loadUsers(ctx, world.users);
        await loadEnterprises(ctx, world.enterprises);
        await loadOrganizations(ctx, world.organizations);
        await loadTeams(ctx, world.teams);
        await loadRepositories(ctx, world.repositories);
        await loadTeamRepositories(ctx, world.teams);
        await loadRoles(ctx, world.organization_roles);
        await loadRoleAssignments(ctx, world.role_assignments);
        await loadAdvisories(ctx, world.advisories, this.deps);
        // Written: 20,000 advisories of 1–3 KB need not stay in memory while a million alerts load.
        world.advisories = [];
        await loadAlerts(ctx, source, this.deps, (done) => progress(`alerts: ${done}/${source.alertCount}`));
        alertsParsed = true;
        await loadAttestations(ctx, world.attestations, this.deps.attestations);
        // Rules first: the snapshots' evaluation then dismisses what they match as it creates it.
        await loadAutoTriage(ctx, world, this.deps.autoTriage, this.deps.alertEngine);
        await loadDependencySnapshots(ctx, world.dependency_snapshots, { snapshots: this.deps.snapshots, alerts: this.deps.alertEngine, queue: this.deps.snapshotQueue });
        await loadOidc(ctx, world.oidc);
        await loadWebhooks(ctx, world.webhooks, this.deps.webhooks);
        await pruneEnterpriseInclusions(trx);
        const generatedTokens = await this.loadTokens(trx, world.tokens);
        await loadAuditLog(ctx, world.audit_log, this.deps.auditLog);
        // The load itself, a change of no one organization: the operator's export shows it (orgsec audit-log export).
        await this.deps.audit.record(trx, options.actor ?? commandActor(), [{ action: 'world.load', operation: 'create', data: { replace: options.replace ?? false, counts } }]);
        return { counts, generatedTokens };
      } catch (error) {
        // The alerts are parsed as they load, yet a schema problem in them outranks any other
        // problem, as when the whole world was parsed before anything was written.
        if (error instanceof WorldError && !(error instanceof WorldSchemaError) && !alertsParsed) throw (await alertsSchemaError(source)) ?? error;
        throw error;
      }
    });
    // Committed: after a bulk write the planner learns the tables' new sizes (planner-statistics.ts).
    const written = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    if (written >= BULK_WRITE_ROWS) await refreshPlannerStatistics(this.deps.db, [...WORLD_TABLES, 'organization_roles', 'accounts']);
    return summary;
  }

  private async loadTokens(trx: Knex.Transaction, tokens: World['tokens']): Promise<GeneratedToken[]> {
    const generated: GeneratedToken[] = [];
    const declaredAt = new Map<string, number>();
    for (const [i, declaration] of tokens.entries()) {
      const entry = `tokens[${i}]`;
      if (declaration.token === undefined) {
        const key = declarationKey(declaration);
        const earlier = declaredAt.get(key);
        if (earlier !== undefined) fail(entry, `declares the same token as tokens[${earlier}]; give them different "name"s`);
        declaredAt.set(key, i);
      }
      let issued;
      try {
        issued = await this.deps.tokens.issue(trx, declaration, { idempotent: true });
      } catch (error) {
        if (error instanceof ValidationError) fail(entry, error.message);
        throw error;
      }
      if (issued.token !== undefined) {
        const who = declaration.type === 'installation' ? `app ${declaration.app}` : declaration.user;
        const where = 'resource_owner' in declaration ? ` on ${declaration.resource_owner}` : '';
        generated.push({ entry, description: `${declaration.type} token for ${who}${where}`, token: issued.token });
      }
    }
    return generated;
  }
}

function countsOf(world: World, alerts: number): Record<string, number> {
  const oidc = world.oidc;
  return {
    users: world.users.length,
    enterprises: world.enterprises.length,
    organizations: world.organizations.length,
    teams: world.teams.length,
    repositories: world.repositories.length,
    organization_roles: world.organization_roles.length,
    role_assignments: world.role_assignments.length,
    advisories: world.advisories.length,
    alerts,
    attestations: world.attestations.length,
    dependency_snapshots: world.dependency_snapshots.length,
    dependency_bot_rules: world.dependency_bot_rules.length,
    dependency_bot_presets: world.dependency_bot_presets.length,
    webhooks: world.webhooks.length,
    audit_log: world.audit_log.length,
    oidc_settings:
      (oidc.enterprise_property_inclusions?.length ?? 0) + (oidc.organization_property_inclusions?.length ?? 0)
      + (oidc.organization_subject_templates?.length ?? 0) + (oidc.repository_subject_templates?.length ?? 0),
    tokens: world.tokens.length,
  };
}
