import type { Knex } from 'knex';

// The migrations in order. An explicit list (rather than a directory scan) runs the
// same from TypeScript sources under jest and from compiled JavaScript in dist/.
import * as createAccounts from './20261122100000_create_accounts';
import * as createEnterprises from './20261122100100_create_enterprises';
import * as createOrganizations from './20261122100200_create_organizations';
import * as createTeams from './20261122100300_create_teams';
import * as createRepositories from './20261122100400_create_repositories';
import * as createOrganizationRoles from './20261122100500_create_organization_roles';
import * as createTokens from './20261122100600_create_tokens';
import * as createOidcCustomization from './20261122100700_create_oidc_customization';
import * as createAdvisories from './20261122100800_create_advisories';
import * as createDependencyAlerts from './20261122100900_create_dependency_alerts';
import * as createAttestations from './20261122101000_create_attestations';
import * as createRateLimitCounters from './20261123090000_create_rate_limit_counters';
import * as createDataVersions from './20261123130000_create_data_versions';
import * as widenAlertListIndexes from './20261123140000_widen_alert_list_indexes';
import * as renameWorldVersionToReference from './20261127010000_rename_world_version_to_reference';
import * as extendAdvisoriesForOsv from './20261127030000_extend_advisories_for_osv';
import * as createDependencySnapshots from './20261127050000_create_dependency_snapshots';
import * as createDependencyBotRules from './20261127060000_create_dependency_bot_rules';
import * as createAlertEngine from './20261127070000_create_alert_engine';
import * as createWebhooks from './20261127080000_create_webhooks';
import * as createOidcSigningKeys from './20261127080100_create_oidc_signing_keys';
import * as reshapeDependencyStorage from './20261127090000_reshape_dependency_storage';
import * as addAttestationVerdicts from './20261127100000_add_attestation_verdicts';
import * as moveAlertVersionsWithEveryChange from './20261127110000_move_alert_versions_with_every_change';
import * as indexPublicRepositories from './20261202060000_index_public_repositories';
import * as queueDependencySnapshots from './20261202090000_queue_dependency_snapshots';
import * as storeAdvisoryAlertJson from './20261204030000_store_advisory_alert_json';
import * as coverAlertLists from './20261205200000_cover_alert_lists';
import * as createAuditLog from './20261206060000_create_audit_log';
import * as recordCoveredManifests from './20261208090000_record_covered_manifests';
import * as indexEventsByAlert from './20261209090000_index_events_by_alert';

export interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
  /** `transaction: false`: runs outside a transaction (PostgreSQL's CREATE INDEX CONCURRENTLY). */
  config?: { transaction?: boolean };
}

export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['20261122100000_create_accounts', createAccounts],
  ['20261122100100_create_enterprises', createEnterprises],
  ['20261122100200_create_organizations', createOrganizations],
  ['20261122100300_create_teams', createTeams],
  ['20261122100400_create_repositories', createRepositories],
  ['20261122100500_create_organization_roles', createOrganizationRoles],
  ['20261122100600_create_tokens', createTokens],
  ['20261122100700_create_oidc_customization', createOidcCustomization],
  ['20261122100800_create_advisories', createAdvisories],
  ['20261122100900_create_dependency_alerts', createDependencyAlerts],
  ['20261122101000_create_attestations', createAttestations],
  ['20261123090000_create_rate_limit_counters', createRateLimitCounters],
  ['20261123130000_create_data_versions', createDataVersions],
  ['20261123140000_widen_alert_list_indexes', widenAlertListIndexes],
  ['20261127010000_rename_world_version_to_reference', renameWorldVersionToReference],
  ['20261127030000_extend_advisories_for_osv', extendAdvisoriesForOsv],
  ['20261127050000_create_dependency_snapshots', createDependencySnapshots],
  ['20261127060000_create_dependency_bot_rules', createDependencyBotRules],
  ['20261127070000_create_alert_engine', createAlertEngine],
  ['20261127080000_create_webhooks', createWebhooks],
  ['20261127080100_create_oidc_signing_keys', createOidcSigningKeys],
  ['20261127090000_reshape_dependency_storage', reshapeDependencyStorage],
  ['20261127100000_add_attestation_verdicts', addAttestationVerdicts],
  ['20261127110000_move_alert_versions_with_every_change', moveAlertVersionsWithEveryChange],
  ['20261202060000_index_public_repositories', indexPublicRepositories],
  ['20261202090000_queue_dependency_snapshots', queueDependencySnapshots],
  ['20261204030000_store_advisory_alert_json', storeAdvisoryAlertJson],
  ['20261205200000_cover_alert_lists', coverAlertLists],
  ['20261206060000_create_audit_log', createAuditLog],
  ['20261208090000_record_covered_manifests', recordCoveredManifests],
  ['20261209090000_index_events_by_alert', indexEventsByAlert],
];

/** A knex migration source over the list above. */
export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...migrations],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
