// The OSV side of the advisory database: reading OSV sources and EPSS files, and mapping an OSV
// advisory to orgsec's. Pure and file-reading code only; the importer wires it to the store.
export { readOsvSources } from './osv-sources';
export { MalformedOsvFileError, type OsvDocument, type OsvSourceItem } from './osv-document';
export { mapOsvAdvisory } from './osv-to-advisory';
export { scoreCvssVector, type CvssKind, type CvssScoring } from './cvss-score';
export { cweEntry } from './cwe-catalogue';
export { ecosystemOf } from './ecosystems';
export { readEpssFile, readEpssLines, type EpssItem, type EpssLineError, type EpssScore } from './epss-csv';
export type * from './osv.types';
