import Ajv, { type JSONSchemaType } from 'ajv';
import { problemOf } from './schema-problems';
import { MAX_SBOM_COMPONENTS, tooManyComponents, type SbomComponent, type SbomProblem, type SbomReading } from './sbom.types';

// SPDX 2.3 JSON documents: what the specification requires of a document, a package and a
// relationship (its required fields and their vocabularies, as its JSON schema has them), checked
// with ajv; then read: the packages, their purls (externalRefs of type purl), the dependency
// relationships, and the package the document DESCRIBES as the subject. A relationship naming
// an element the document does not hold is refused.

interface SpdxPackage {
  SPDXID: string;
  name: string;
  versionInfo?: string;
  downloadLocation: string;
  externalRefs?: Array<{ referenceCategory: string; referenceType: string; referenceLocator: string }>;
}

interface SpdxRelationship {
  spdxElementId: string;
  relationshipType: string;
  relatedSpdxElement: string;
}

export interface SpdxDocument {
  spdxVersion: string;
  SPDXID: string;
  name: string;
  dataLicense: string;
  documentNamespace: string;
  creationInfo: { created: string; creators: string[] };
  documentDescribes?: string[];
  packages?: SpdxPackage[];
  files?: Array<{ SPDXID: string }>;
  snippets?: Array<{ SPDXID: string }>;
  relationships?: SpdxRelationship[];
}

/** SPDX 2.3's relationship types. */
const RELATIONSHIP_TYPES = [
  'DESCRIBES', 'DESCRIBED_BY', 'CONTAINS', 'CONTAINED_BY', 'DEPENDS_ON', 'DEPENDENCY_OF', 'DEPENDENCY_MANIFEST_OF', 'BUILD_DEPENDENCY_OF',
  'DEV_DEPENDENCY_OF', 'OPTIONAL_DEPENDENCY_OF', 'PROVIDED_DEPENDENCY_OF', 'TEST_DEPENDENCY_OF', 'RUNTIME_DEPENDENCY_OF', 'EXAMPLE_OF', 'GENERATES',
  'GENERATED_FROM', 'ANCESTOR_OF', 'DESCENDANT_OF', 'VARIANT_OF', 'DISTRIBUTION_ARTIFACT', 'PATCH_FOR', 'PATCH_APPLIED', 'COPY_OF', 'FILE_ADDED',
  'FILE_DELETED', 'FILE_MODIFIED', 'EXPANDED_FROM_ARCHIVE', 'DYNAMIC_LINK', 'STATIC_LINK', 'DATA_FILE_OF', 'TEST_CASE_OF', 'BUILD_TOOL_OF',
  'DEV_TOOL_OF', 'TEST_OF', 'TEST_TOOL_OF', 'DOCUMENTATION_OF', 'OPTIONAL_COMPONENT_OF', 'METAFILE_OF', 'PACKAGE_OF', 'AMENDS', 'PREREQUISITE_FOR',
  'HAS_PREREQUISITE', 'REQUIREMENT_DESCRIPTION_FOR', 'SPECIFICATION_FOR', 'OTHER',
] as const;

const element = { type: 'object', properties: { SPDXID: { type: 'string' } }, required: ['SPDXID'] } as const;

const SCHEMA: JSONSchemaType<SpdxDocument> = {
  type: 'object',
  required: ['spdxVersion', 'SPDXID', 'name', 'dataLicense', 'documentNamespace', 'creationInfo'],
  properties: {
    spdxVersion: { type: 'string', const: 'SPDX-2.3' },
    SPDXID: { type: 'string', const: 'SPDXRef-DOCUMENT' },
    name: { type: 'string' },
    dataLicense: { type: 'string', const: 'CC0-1.0' },
    documentNamespace: { type: 'string' },
    creationInfo: {
      type: 'object', required: ['created', 'creators'],
      properties: { created: { type: 'string' }, creators: { type: 'array', minItems: 1, items: { type: 'string' } } },
    },
    documentDescribes: { type: 'array', nullable: true, items: { type: 'string' } },
    packages: {
      type: 'array', nullable: true,
      items: {
        type: 'object', required: ['SPDXID', 'name', 'downloadLocation'],
        properties: {
          SPDXID: { type: 'string' },
          name: { type: 'string' },
          versionInfo: { type: 'string', nullable: true },
          downloadLocation: { type: 'string' },
          externalRefs: {
            type: 'array', nullable: true,
            items: {
              type: 'object', required: ['referenceCategory', 'referenceType', 'referenceLocator'],
              properties: {
                referenceCategory: { type: 'string', enum: ['OTHER', 'PERSISTENT-ID', 'SECURITY', 'PACKAGE-MANAGER', 'PERSISTENT_ID', 'PACKAGE_MANAGER'] },
                referenceType: { type: 'string' },
                referenceLocator: { type: 'string' },
              },
            },
          },
        },
      },
    },
    files: { type: 'array', nullable: true, items: element },
    snippets: { type: 'array', nullable: true, items: element },
    relationships: {
      type: 'array', nullable: true,
      items: {
        type: 'object', required: ['spdxElementId', 'relationshipType', 'relatedSpdxElement'],
        properties: {
          spdxElementId: { type: 'string' },
          relationshipType: { type: 'string', enum: [...RELATIONSHIP_TYPES] },
          relatedSpdxElement: { type: 'string' },
        },
      },
    },
  },
};

// allErrors: the answer names the first problems, not only the first.
const validate = new Ajv({ allErrors: true, strict: false }).compile(SCHEMA);
const MAX_PROBLEMS = 10;


/** What an edge means: `from` depends on `to`; development when it is a dev, test or build dependency. */
function edgeOf(r: SpdxRelationship): { from: string; to: string; development: boolean } | undefined {
  switch (r.relationshipType) {
    case 'DEPENDS_ON':
    case 'HAS_PREREQUISITE':
      return { from: r.spdxElementId, to: r.relatedSpdxElement, development: false };
    case 'DEPENDENCY_OF':
    case 'RUNTIME_DEPENDENCY_OF':
    case 'OPTIONAL_DEPENDENCY_OF':
    case 'PROVIDED_DEPENDENCY_OF':
    case 'PREREQUISITE_FOR':
      return { from: r.relatedSpdxElement, to: r.spdxElementId, development: false };
    case 'DEV_DEPENDENCY_OF':
    case 'TEST_DEPENDENCY_OF':
    case 'BUILD_DEPENDENCY_OF':
      return { from: r.relatedSpdxElement, to: r.spdxElementId, development: true };
    default:
      return undefined;
  }
}

/** "Tool: syft-1.2.3", "Tool: npm/cli-11.19.1": the first tool among the creators. */
function toolOf(creators: readonly string[]): { name: string; version: string; url: null } | null {
  const tool = creators.find((c) => c.startsWith('Tool:'))?.slice('Tool:'.length).trim();
  if (!tool) return null;
  const match = /^(.*?)-(v?\d[\w.+-]*)$/.exec(tool);
  return match ? { name: match[1]!, version: match[2]!, url: null } : { name: tool, version: '', url: null };
}

/** An element id a relationship may name besides the document's own: none, no assertion, or an element of another document. */
const isExternal = (id: string) => id === 'NOASSERTION' || id === 'NONE' || id.startsWith('DocumentRef-');

export function readSpdx(document: unknown): SbomReading {
  const listed = (document as { packages?: unknown }).packages;
  if (Array.isArray(listed) && listed.length > MAX_SBOM_COMPONENTS) return { ok: false, problems: [tooManyComponents('/packages', listed.length)] };
  if (!validate(document)) return { ok: false, problems: (validate.errors ?? []).slice(0, MAX_PROBLEMS).map(problemOf) };
  const doc = document as SpdxDocument;
  const packages = doc.packages ?? [];
  const ids = new Set<string>([doc.SPDXID, ...packages.map((p) => p.SPDXID), ...(doc.files ?? []).map((f) => f.SPDXID), ...(doc.snippets ?? []).map((s) => s.SPDXID)]);
  const problems: SbomProblem[] = [];
  const seen = new Set<string>();
  packages.forEach((p, i) => {
    if (seen.has(p.SPDXID)) problems.push({ path: `/packages/${i}/SPDXID`, message: `${p.SPDXID} names another package already` });
    seen.add(p.SPDXID);
  });
  const relationships = doc.relationships ?? [];
  relationships.forEach((r, i) => {
    for (const key of ['spdxElementId', 'relatedSpdxElement'] as const) {
      if (!ids.has(r[key]) && !isExternal(r[key])) problems.push({ path: `/relationships/${i}/${key}`, message: `${r[key]} names no element of this document` });
    }
  });
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };

  const described = [...(doc.documentDescribes ?? []), ...relationships.filter((r) => r.spdxElementId === doc.SPDXID && r.relationshipType === 'DESCRIBES').map((r) => r.relatedSpdxElement)];
  const subjectId = described.find((id) => seen.has(id));
  const edges = relationships.flatMap((r) => edgeOf(r) ?? []).filter((e) => seen.has(e.from) && seen.has(e.to));
  const dependsOn = new Map<string, string[]>();
  const runtimeTargets = new Set<string>();
  const developmentTargets = new Set<string>();
  for (const e of edges) {
    dependsOn.set(e.from, [...(dependsOn.get(e.from) ?? []), e.to]);
    (e.development ? developmentTargets : runtimeTargets).add(e.to);
  }
  const components: SbomComponent[] = packages.map((p, i) => {
    const purlAt = p.externalRefs?.findIndex((r) => r.referenceType === 'purl') ?? -1;
    return {
      ref: p.SPDXID, path: `/packages/${i}`, name: p.name, version: p.versionInfo ?? null,
      purl: purlAt < 0 ? null : p.externalRefs![purlAt]!.referenceLocator, purlPath: purlAt < 0 ? null : `/packages/${i}/externalRefs/${purlAt}/referenceLocator`,
      development: developmentTargets.has(p.SPDXID) && !runtimeTargets.has(p.SPDXID),
    };
  });
  const subject = subjectId === undefined ? null : { ref: subjectId, name: packages.find((p) => p.SPDXID === subjectId)!.name };
  return {
    ok: true,
    graph: { format: 'SPDX', specVersion: '2.3', tool: toolOf(doc.creationInfo.creators), subject, components, dependsOn: edges.length > 0 ? dependsOn : null },
  };
}
