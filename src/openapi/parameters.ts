import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../http/pagination';
import {
  ARTIFACT_REGISTRIES, CLASSIFICATIONS, RELATIONSHIPS, RUNTIME_RISKS, SEVERITIES, ALERT_STATES,
} from '../modules/dependency-alerts/alerts.types';
import { ECOSYSTEMS } from '../modules/advisories/ecosystems';

// Descriptions of path and query parameters: what a zod refinement checks but JSON Schema
// cannot say (a comma-separated list's values, an integer's range), from the same constants.

const values = (list: readonly string[]) => list.map((v) => `\`${v}\``).join(', ');
const commaList = (list: readonly string[]) => `Comma-separated; any of ${values(list)}.`;

const DESCRIPTIONS: Record<string, string> = {
  org: 'The organization name (not case sensitive).',
  enterprise: 'The enterprise slug.',
  owner: 'The account owner of the repository (not case sensitive).',
  repo: 'The repository name, without the `.git` extension (not case sensitive).',
  team_slug: 'The slug of the team name.',
  username: 'The handle of the user account.',
  role_id: 'The unique identifier of the role (a whole number, at least 1).',
  alert_number: 'The number that identifies the alert in its repository (a whole number, at least 1).',
  custom_property_name: 'The name of the repository custom property.',
  subject_digest: 'The SHA-256 digest of the attestation subject: `sha256:` and 64 hexadecimal digits.',
  hook_id: 'The unique identifier of the hook (a whole number, at least 1).',
  delivery_id: 'The unique identifier of the delivery attempt, as the deliveries list gives it (a whole number, at least 1).',
  cursor: 'A cursor from the Link header: the page after it.',
  per_page: `Results per page (a whole number from 1 to ${MAX_PER_PAGE}; default ${DEFAULT_PER_PAGE}).`,
  page: 'The page number to fetch (a whole number, at least 1; default 1).',
  before: 'A cursor from the Link header: only results before it.',
  after: 'A cursor from the Link header: only results after it.',
  predicate_type: 'A predicate type URI, or `provenance`, `sbom` or `release`.',
  classification: commaList(CLASSIFICATIONS),
  state: commaList(ALERT_STATES),
  severity: commaList(SEVERITIES),
  ecosystem: commaList(ECOSYSTEMS),
  package: 'Comma-separated package names.',
  relationship: commaList(RELATIONSHIPS),
  manifest: 'Comma-separated full manifest paths.',
  epss_percentage: '`n`, `>n`, `<n`, `>=n`, `<=n` or `n..n`, with n from 0.0 to 1.0.',
  has: 'Only alerts that have this (repeatable, or comma-separated): `patch`, and `deployment` on the organization list.',
  assignee: '`*` (assigned to anyone), `none` (unassigned), or comma-separated logins.',
  scope: 'The scope of the vulnerable dependency.',
  sort: 'The property to sort by: `created`, `updated` (last state change) or `epss_percentage`.',
  direction: 'The direction of the sort.',
  artifact_registry_url: 'Comma-separated artifact registry URLs: repositories with storage records for them.',
  artifact_registry: commaList(ARTIFACT_REGISTRIES),
  runtime_risk: `${commaList(RUNTIME_RISKS)} Repositories with deployment records carrying them.`,
};

export function describeParameter(name: string): { description?: string } {
  const description = DESCRIPTIONS[name];
  return description ? { description } : {};
}
