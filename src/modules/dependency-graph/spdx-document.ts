import crypto from 'node:crypto';
import type { CurrentDependency } from './dependency-graph.types';

// S2: the current dependency set as an SPDX 2.3 JSON document (https://spdx.github.io/spdx-spec/v2.3/):
// the repository is the described package; it depends on every package of the set, and each
// package on the packages its `dependencies` name.

export interface SpdxSubject {
  owner: string;
  name: string;
  defaultBranch: string;
  /** Where the document's namespace starts (the API's base URL). */
  apiBase: string;
  created: string;
}

/** SPDX ids allow letters, digits, `.` and `-`. */
const idPart = (text: string) => text.replace(/[^A-Za-z0-9.]+/g, '-').replace(/^-+|-+$/g, '');

export function spdxDocument(subject: SpdxSubject, dependencies: readonly CurrentDependency[]): Record<string, unknown> {
  const repoId = 'SPDXRef-Repository';
  const idsByPurl = new Map<string, string>();
  const used = new Set<string>([repoId]);
  const packages: Array<Record<string, unknown>> = [{
    SPDXID: repoId, name: `${subject.owner}/${subject.name}`, versionInfo: subject.defaultBranch,
    downloadLocation: 'NOASSERTION', filesAnalyzed: false,
    externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: `pkg:github/${subject.owner}/${subject.name}@${subject.defaultBranch}` }],
  }];
  for (const d of dependencies) {
    if (idsByPurl.has(d.packageUrl)) continue;
    const base = `SPDXRef-${idPart(d.package.purlType)}-${idPart(d.package.name)}${d.package.version === null ? '' : `-${idPart(d.package.version)}`}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    idsByPurl.set(d.packageUrl, id);
    packages.push({
      SPDXID: id, name: d.package.name, ...(d.package.version === null ? {} : { versionInfo: d.package.version }),
      downloadLocation: 'NOASSERTION', filesAnalyzed: false,
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: d.packageUrl }],
    });
  }
  const relationships: Array<Record<string, string>> = [{ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: repoId }];
  const seen = new Set<string>();
  const relate = (from: string, to: string) => {
    const key = `${from} ${to}`;
    if (seen.has(key)) return;
    seen.add(key);
    relationships.push({ spdxElementId: from, relationshipType: 'DEPENDS_ON', relatedSpdxElement: to });
  };
  for (const id of idsByPurl.values()) relate(repoId, id);
  for (const d of dependencies) {
    for (const purl of d.dependencies) {
      const to = idsByPurl.get(purl);
      if (to !== undefined) relate(idsByPurl.get(d.packageUrl)!, to);
    }
  }
  const digest = crypto.createHash('sha256').update(JSON.stringify([packages, relationships])).digest('hex').slice(0, 32);
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `${subject.owner}/${subject.name}`,
    documentNamespace: `${subject.apiBase}/repos/${subject.owner}/${subject.name}/dependency-graph/sbom-${digest}`,
    creationInfo: { creators: ['Tool: orgsec'], created: subject.created },
    documentDescribes: [repoId],
    packages,
    relationships,
  };
}
