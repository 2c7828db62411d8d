import crypto from 'node:crypto';
import type { Knex } from 'knex';

// The domain's tables; rate_limit_counters is left out, as every request counts there.
const TABLES = [
  'accounts', 'enterprises', 'enterprise_members', 'organizations', 'organization_members', 'organization_custom_properties',
  'teams', 'team_members', 'repositories', 'repository_collaborators', 'team_repositories', 'repository_custom_property_values',
  'repository_storage_records', 'repository_deployment_records', 'organization_roles', 'organization_role_users',
  'organization_role_teams', 'tokens', 'token_repositories', 'enterprise_oidc_property_inclusions',
  'organization_oidc_property_inclusions', 'organization_oidc_subject_templates', 'repository_oidc_subject_templates',
  'advisories', 'advisory_vulnerabilities', 'dependency_alerts', 'dependency_alert_assignees', 'attestations', 'attestation_subjects',
  'dependency_snapshots', 'dependency_snapshot_manifests', 'repository_current_snapshots', 'repository_dependencies', 'repository_covered_manifests',
  'dependency_bot_rules', 'dependency_bot_presets', 'webhooks', 'webhook_deliveries', 'webhook_delivery_attempts',
];

/** A digest of every row of every table: equal digests mean nothing changed (but in the columns `ignoring` names). */
export async function hashTables(knex: Knex, ignoring: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const rows = await knex(table).select('*');
    const lines = rows.map((r) => JSON.stringify(Object.keys(r).filter((k) => !ignoring.includes(k)).sort().map((k) => [k, r[k]]))).sort();
    out[table] = crypto.createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
  }
  return out;
}

/**
 * How many audit-log records there are: a refused or failed write adds none. (Not among the
 * tables hashed above: a world loaded again changes nothing there, yet its load is recorded.)
 */
export async function auditRecordCount(knex: Knex): Promise<number> {
  return Number((await knex('audit_log').count({ n: '*' }).first())!.n);
}

/** The newest audit-log record's id (0 when there is none): what a step adds is what follows it. */
export async function lastAuditId(knex: Knex): Promise<number> {
  return Number((await knex('audit_log').max({ id: 'id' }).first())?.id ?? 0);
}
