import type { Knex } from 'knex';
import { ValidationError } from '../../errors/domain';
import { checkBundle } from '../attestations/attestation-bundle';
import type { AttestationsStore } from '../attestations/attestations.store';
import type { AlertsStore } from '../dependency-alerts/alerts.store';
import { nameKey } from '../accounts/accounts.store';
import type { SectionContext } from './world.accounts';
import type { AdvisoriesWorldStore, WorldAdvisory } from '../advisories/advisories.world-store';
import { storedWorldVulnerability } from '../advisories/stored-vulnerabilities';
import { chunksOf } from '../../shared/chunks';
import { fail, storedTimestamp } from './world.support';
import type { World } from './world.schema';

const ts = storedTimestamp;

/** The stores a world's advisories are written through. */
export interface AdvisoryStores {
  advisories: AdvisoriesWorldStore;
  alerts: AlertsStore;
}

export async function loadAdvisories(ctx: SectionContext, advisories: World['advisories'], stores: AdvisoryStores): Promise<void> {
  for (const chunk of chunksOf([...advisories.entries()], ADVISORIES_PER_CHUNK)) await loadAdvisoryChunk(ctx.trx, chunk, stores);
}

// 20 columns a row: 4,000 bound parameters an upsert.
const ADVISORIES_PER_CHUNK = 200;

/**
 * Advisories a chunk at a time (20,000 of the public database's shape load in seconds): each
 * checked in file order, then one upsert, one read of their ids, their vulnerability sets
 * replaced together, their alerts' copies refreshed. A svcsa_id given twice keeps its last entry.
 */
async function loadAdvisoryChunk(trx: Knex.Transaction, chunk: Array<[number, World['advisories'][number]]>, stores: AdvisoryStores): Promise<void> {
  const declared = new Map<string, WorldAdvisory>();
  for (const [i, a] of chunk) {
    const entry = `advisories[${i}] "${a.svcsa_id}"`;
    const vulnerabilities = a.vulnerabilities.map((v, j) => {
      const reading = storedWorldVulnerability(v.package.ecosystem, v.package.name, v.vulnerable_version_range, v.first_patched_version?.identifier ?? null);
      return reading.ok ? { ...reading.vulnerability, severity: v.severity } : fail(`${entry} vulnerabilities[${j}]`, `vulnerable_version_range: ${reading.reason}`);
    });
    // A later entry wins, in the earlier one's place (its id), as when written one by one.
    declared.set(a.svcsa_id, { values: advisoryColumns(a), vulnerabilities });
  }
  const ids = await stores.advisories.upsertChunk(trx, declared);
  await stores.alerts.refreshAdvisoryFacts(trx, [...ids.values()]);
}

/** The advisories columns a world entry sets (all but svcsa_id, its key). */
function advisoryColumns(a: World['advisories'][number]): Record<string, unknown> {
  return {
    cve_id: a.cve_id ?? null,
    type: a.classification === 'malware' ? 'malware' : 'reviewed',
    modified: null, // no OSV revision: an import of the same id replaces it
    classification: a.classification,
    summary: a.summary,
    description: a.description,
    severity: a.severity,
    cvss_vector_string: a.cvss?.vector_string ?? null,
    cvss_score: a.cvss?.score ?? null,
    cvss_severities: JSON.stringify({ cvss_v3: a.cvss_severities?.cvss_v3 ?? null, cvss_v4: a.cvss_severities?.cvss_v4 ?? null }),
    epss_percentage: a.epss?.percentage ?? null,
    epss_percentile: a.epss?.percentile ?? null,
    cwes: JSON.stringify(a.cwes),
    identifiers: JSON.stringify(a.identifiers),
    references: JSON.stringify(a.references),
    published_at: ts(a.published_at)!,
    updated_at: ts(a.updated_at)!,
    withdrawn_at: ts(a.withdrawn_at),
  };
}

/** Attestations go through the same bundle checks as #21; the same bundle twice is one. */
export async function loadAttestations(ctx: SectionContext, attestations: World['attestations'], store: AttestationsStore): Promise<void> {
  const { trx, refs, now } = ctx;
  for (const [i, a] of attestations.entries()) {
    const entry = `attestations[${i}] "${a.repository}"`;
    const repo = await refs.repo(entry, a.repository);
    let checked;
    try {
      checked = checkBundle(a.bundle);
    } catch (error) {
      if (error instanceof ValidationError) fail(entry, error.message);
      throw error;
    }
    await store.insert(trx, repo.id, a.bundle, checked, null, now);
  }
}

export async function loadOidc(ctx: SectionContext, oidc: World['oidc']): Promise<void> {
  const { trx, refs, now } = ctx;
  for (const [i, inc] of (oidc.enterprise_property_inclusions ?? []).entries()) {
    const entry = `oidc.enterprise_property_inclusions[${i}]`;
    const enterprise = await trx('enterprises').where('slug_key', nameKey(inc.enterprise)).first('id');
    if (!enterprise) fail(entry, `enterprise "${inc.enterprise}" does not exist`);
    const defined = await trx('organization_custom_properties as p')
      .join('organizations as o', 'o.account_id', 'p.org_id')
      .where({ 'o.enterprise_id': enterprise.id, 'p.name': inc.custom_property_name })
      .first('p.name');
    if (!defined) fail(entry, `no organization of ${inc.enterprise} defines the custom property "${inc.custom_property_name}"`);
    await trx('enterprise_oidc_property_inclusions')
      .insert({ enterprise_id: enterprise.id, custom_property_name: inc.custom_property_name, created_at: now })
      .onConflict(['enterprise_id', 'custom_property_name']).ignore();
  }
  for (const [i, inc] of (oidc.organization_property_inclusions ?? []).entries()) {
    const entry = `oidc.organization_property_inclusions[${i}]`;
    const org = await refs.org(entry, inc.org);
    if (!(await trx('organization_custom_properties').where({ org_id: org.id, name: inc.custom_property_name }).first('name'))) {
      fail(entry, `${inc.org} defines no custom property "${inc.custom_property_name}"`);
    }
    await trx('organization_oidc_property_inclusions')
      .insert({ org_id: org.id, custom_property_name: inc.custom_property_name, created_at: now })
      .onConflict(['org_id', 'custom_property_name']).ignore();
  }
  for (const [i, t] of (oidc.organization_subject_templates ?? []).entries()) {
    const org = await refs.org(`oidc.organization_subject_templates[${i}]`, t.org);
    const values = { include_claim_keys: JSON.stringify(t.include_claim_keys), use_immutable_subject: t.use_immutable_subject ? 1 : 0 };
    await upsertUnlessEqual(trx, 'organization_oidc_subject_templates', { org_id: org.id }, values, now);
  }
  for (const [i, t] of (oidc.repository_subject_templates ?? []).entries()) {
    const repo = await refs.repo(`oidc.repository_subject_templates[${i}]`, t.repository);
    const values = {
      use_default: t.use_default ? 1 : 0,
      include_claim_keys: t.include_claim_keys === undefined ? null : JSON.stringify(t.include_claim_keys),
      use_immutable_subject: t.use_immutable_subject ? 1 : 0,
    };
    await upsertUnlessEqual(trx, 'repository_oidc_subject_templates', { repo_id: repo.id }, values, now);
  }
}

/** Writes a one-row setting only when it differs, so updated_at stays put on a reload. */
async function upsertUnlessEqual(trx: Knex.Transaction, table: string, key: Record<string, number>, values: Record<string, unknown>, now: string): Promise<void> {
  const existing = await trx(table).where(key).first(Object.keys(values));
  if (!existing) {
    await trx(table).insert({ ...key, ...values, updated_at: now });
    return;
  }
  const differs = Object.entries(values).some(([k, v]) => {
    const have = typeof existing[k] === 'boolean' ? (existing[k] ? 1 : 0) : existing[k];
    return have !== v;
  });
  if (differs) await trx(table).where(key).update({ ...values, updated_at: now });
}

/** An enterprise inclusion never names a property that no organization of it defines. */
export async function pruneEnterpriseInclusions(trx: Knex.Transaction): Promise<void> {
  await trx('enterprise_oidc_property_inclusions as i')
    .whereNotExists((q) =>
      q.select(trx.raw('1'))
        .from('organization_custom_properties as p')
        .join('organizations as o', 'o.account_id', 'p.org_id')
        .whereRaw('o.enterprise_id = i.enterprise_id')
        .whereRaw('p.name = i.custom_property_name'),
    )
    .delete();
}
