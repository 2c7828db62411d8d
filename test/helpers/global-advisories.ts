import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { mapOsvAdvisory, type ImportedAdvisory } from '../../src/modules/advisories/osv';
import { normalizePackageName } from '../../src/modules/advisories/versions';
import { renderSimpleRange } from './osv-range-text';

// Advisories for the global list's tests: the real OSV fixtures (test/fixtures/osv) and
// generated OSV documents, mapped by the product's OSV mapping and written as advisory rows.
// Written here through the tables until the importer (i20-store) lands; then through it.

export const OSV_FIXTURES = path.join(__dirname, '..', 'fixtures', 'osv', 'advisories');

export function fixtureDocuments(): Array<Record<string, unknown>> {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith('.json')) found.push(path.join(dir, entry.name));
    }
  };
  walk(OSV_FIXTURES);
  return found.sort().map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
}

function mapped(document: Record<string, unknown>): ImportedAdvisory {
  const result = mapOsvAdvisory(document, renderSimpleRange);
  if (result.kind !== 'mapped') throw new Error(`${String(document.id)} did not map: ${JSON.stringify(result)}`);
  return result.advisory;
}

/** Writes OSV documents as advisories (one vulnerability row per affected entry); returns their ids by svcsa_id. */
export async function insertOsvAdvisories(db: Knex, documents: ReadonlyArray<Record<string, unknown>>): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const document of documents) {
    const a = mapped(document);
    const [row] = await db('advisories').insert({
      svcsa_id: a.svcsaId, cve_id: a.cveId, classification: a.classification, type: a.type, summary: a.summary, description: a.description,
      severity: a.severity, cvss_vector_string: a.cvss.vector_string, cvss_score: a.cvss.vector_string === null ? null : a.cvss.score,
      cvss_severities: JSON.stringify(a.cvssSeverities), cwes: JSON.stringify(a.cwes), identifiers: JSON.stringify(a.identifiers),
      references: JSON.stringify(a.references), published_at: a.publishedAt, updated_at: a.updatedAt, withdrawn_at: a.withdrawnAt,
      reviewed_at: a.reviewedAt, nvd_published_at: a.nvdPublishedAt, source_code_location: a.sourceCodeLocation, credits: JSON.stringify(a.credits),
    }, ['id']);
    const id = Number(typeof row === 'object' ? row.id : row);
    ids.set(a.svcsaId, id);
    for (const v of a.vulnerabilities) {
      await db('advisory_vulnerabilities').insert({
        advisory_id: id, ecosystem: v.package.ecosystem, package_name: v.package.name, package_key: normalizePackageName(v.package.ecosystem, v.package.name),
        severity: a.severity, vulnerable_version_range: v.vulnerableVersionRange, first_patched_version: v.firstPatchedVersion,
        vulnerable_functions: JSON.stringify(v.vulnerableFunctions), ranges: JSON.stringify(v.ranges), versions: JSON.stringify(v.versions),
      });
    }
  }
  return ids;
}

export interface GeneratedOsv {
  id: string;
  ecosystem: 'npm' | 'PyPI';
  name: string;
  introduced: string;
  fixed: string;
  published: string;
  modified: string;
  severity: 'LOW' | 'MODERATE' | 'HIGH' | 'CRITICAL';
  cwe: string;
  reviewed: boolean;
  malware?: boolean;
  withdrawn?: string;
}

/** An OSV document of the public database's shape, with the given facts. */
export function osvDocument(g: GeneratedOsv): Record<string, unknown> {
  return {
    schema_version: '1.4.0',
    id: g.id,
    modified: g.modified,
    published: g.published,
    ...(g.withdrawn ? { withdrawn: g.withdrawn } : {}),
    aliases: [`CVE-2024-${/\d{5}/.exec(g.id)![0]}`],
    summary: `Generated advisory ${g.id}`,
    details: `Details of ${g.id}.`,
    affected: [{ package: { ecosystem: g.ecosystem, name: g.name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: g.introduced }, { fixed: g.fixed }] }] }],
    references: [{ type: 'WEB', url: `https://example.com/${g.id}` }],
    database_specific: { cwe_ids: [g.cwe], severity: g.severity, github_reviewed: g.reviewed, github_reviewed_at: g.reviewed ? g.published : null, nvd_published_at: null },
  };
}
