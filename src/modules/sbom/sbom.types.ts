// An SBOM as orgsec reads it (CycloneDX or SPDX): its components, the dependency graph between
// them, and what it says produced it. Readers (cyclonedx-reader.ts, spdx-reader.ts) check a
// document and give this; sbom-snapshot.ts turns it into a dependency snapshot.

export type SbomFormat = 'CycloneDX' | 'SPDX';

export interface SbomComponent {
  /** The document's own reference (a CycloneDX bom-ref, an SPDX SPDXID); unique within it. */
  ref: string;
  /** Where the document holds it (a JSON pointer), for the answer's skipped list. */
  path: string;
  name: string;
  version: string | null;
  /** The package URL, when the document gives one, and where. */
  purl: string | null;
  purlPath: string | null;
  /** Development only (a CycloneDX optional or excluded component; an SPDX dev, test or build dependency). */
  development: boolean;
}

export interface SbomGraph {
  format: SbomFormat;
  /** The specification version, e.g. "1.6" or "2.3". */
  specVersion: string;
  /** The tool the document names as its producer (the snapshot's detector), if any. */
  tool: { name: string; version: string; url: string | null } | null;
  /** The subject the document describes (CycloneDX metadata.component, SPDX's described package): not a dependency of itself. */
  subject: { ref: string; name: string } | null;
  components: SbomComponent[];
  /** Each component's direct dependencies, by ref (the subject's are its direct dependencies); null when the document carries no graph. */
  dependsOn: ReadonlyMap<string, readonly string[]> | null;
}

/** A problem of a document, named by its JSON pointer. */
export interface SbomProblem {
  path: string;
  message: string;
}

export type SbomReading = { ok: true; graph: SbomGraph } | { ok: false; problems: SbomProblem[] };

/**
 * Components (SPDX: packages) a document may list, counted before it is checked: twice the
 * packages a snapshot records (5,000), as trees list shared packages more than once.
 */
export const MAX_SBOM_COMPONENTS = 10_000;

export const tooManyComponents = (path: string, count: number): SbomProblem => ({
  path, message: `lists ${count.toLocaleString('en-US')} components or more; an upload reads at most ${MAX_SBOM_COMPONENTS.toLocaleString('en-US')}`,
});
