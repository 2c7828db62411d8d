import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Services } from '../../src/composition';
import type { ImportProblem } from '../../src/modules/advisories/advisory-import';

// Advisories for the global list's tests: the real OSV fixtures (test/fixtures/osv) and
// generated OSV documents, imported by the product's importer (`orgsec advisories import`).

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

/** Imports the fixtures and `documents` (written to a folder of their own) through the importer; any problem fails. */
export async function importOsv(services: Services, documents: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-osv-'));
  try {
    for (const document of documents) fs.writeFileSync(path.join(dir, `${String(document.id)}.json`), JSON.stringify(document));
    const problems: ImportProblem[] = [];
    await services.advisoryImport.importPaths([OSV_FIXTURES, dir], { onProblem: (problem) => problems.push(problem) });
    if (problems.length > 0) throw new Error(`the import reported problems: ${JSON.stringify(problems.slice(0, 3))}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
