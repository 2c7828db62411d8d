import { Spec } from '@cyclonedx/cyclonedx-library';
import { cycloneDxValidator } from './cyclonedx-schema';
import { problemOf } from './schema-problems';
import { MAX_SBOM_COMPONENTS, tooManyComponents, type SbomComponent, type SbomProblem, type SbomReading } from './sbom.types';

// CycloneDX JSON BOMs, 1.4 to 1.6, checked against the specification's schema (cyclonedx-schema.ts:
// the schemas the CycloneDX library ships, compiled as it compiles them), then read: every component (nested ones
// too), the `dependencies` graph, metadata.component as the subject, metadata.tools as the producer.

const VERSIONS: Readonly<Record<string, Spec.Version>> = { '1.4': Spec.Version.v1dot4, '1.5': Spec.Version.v1dot5, '1.6': Spec.Version.v1dot6 };
export const CYCLONEDX_VERSIONS = Object.keys(VERSIONS);

/** At most this many schema problems are named. */
const MAX_PROBLEMS = 10;

interface CdxComponent {
  'bom-ref'?: string;
  name: string;
  group?: string;
  version?: string;
  purl?: string;
  scope?: 'required' | 'optional' | 'excluded';
  components?: CdxComponent[];
}

interface CdxTool {
  name?: string;
  group?: string;
  vendor?: string;
  version?: string;
  externalReferences?: Array<{ type?: string; url?: string }>;
}

interface CdxBom {
  specVersion: string;
  metadata?: { component?: CdxComponent; tools?: CdxTool[] | { components?: CdxTool[] } };
  components?: CdxComponent[];
  dependencies?: Array<{ ref: string; dependsOn?: string[] }>;
}

/** Tools that list the package manager beside the generator: the generator names the snapshot's detector. */
const PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'pip', 'maven', 'gradle', 'cargo', 'go']);

function toolOf(bom: CdxBom): { name: string; version: string; url: string | null } | null {
  const raw = bom.metadata?.tools;
  const tools = (Array.isArray(raw) ? raw : raw?.components ?? []).filter((t) => typeof t.name === 'string');
  const tool = tools.find((t) => !PACKAGE_MANAGERS.has(t.name!)) ?? tools[0];
  if (!tool) return null;
  const url = tool.externalReferences?.find((r) => r.type === 'website' || r.type === 'vcs')?.url ?? null;
  return { name: tool.group ? `${tool.group}/${tool.name}` : tool.name!, version: tool.version ?? '', url };
}

/** Components, nested ones too, counted up to just past the limit (a document is not walked further than that). */
function countComponents(list: unknown): number {
  let count = 0;
  const walk = (items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (++count > MAX_SBOM_COMPONENTS) return;
      walk((item as { components?: unknown } | null)?.components);
    }
  };
  walk(list);
  return count;
}

const nameOf = (c: CdxComponent) => (c.group ? `${c.group}/${c.name}` : c.name);

/** Checks a parsed BOM against its version's schema, then reads it. */
export function readCycloneDx(bom: CdxBom): SbomReading {
  const version = VERSIONS[bom.specVersion];
  if (version === undefined) {
    return { ok: false, problems: [{ path: '/specVersion', message: `CycloneDX ${CYCLONEDX_VERSIONS.join(', ')} are read; this BOM is ${JSON.stringify(bom.specVersion)}.` }] };
  }
  // Counted before the schema walks them all.
  const count = countComponents(bom.components);
  if (count > MAX_SBOM_COMPONENTS) return { ok: false, problems: [tooManyComponents('/components', count)] };
  const validate = cycloneDxValidator(version);
  const errors = validate(bom) ? null : validate.errors ?? [];
  if (errors) return { ok: false, problems: errors.slice(0, MAX_PROBLEMS).map(problemOf) };
  const components: SbomComponent[] = [];
  const walk = (list: CdxComponent[] | undefined, path: string) => {
    (list ?? []).forEach((c, i) => {
      const at = `${path}/${i}`;
      components.push({
        ref: c['bom-ref'] ?? at, path: at, name: nameOf(c), version: c.version ?? null, purl: c.purl ?? null, purlPath: c.purl === undefined ? null : `${at}/purl`,
        development: c.scope === 'optional' || c.scope === 'excluded',
      });
      walk(c.components, `${at}/components`);
    });
  };
  walk(bom.components, '/components');
  const subject = bom.metadata?.component;
  const refs = new Set([...components.map((c) => c.ref), ...(subject?.['bom-ref'] ? [subject['bom-ref']] : [])]);
  const problems: SbomProblem[] = [];
  let dependsOn: Map<string, string[]> | null = null;
  if (bom.dependencies) {
    dependsOn = new Map();
    bom.dependencies.forEach(({ ref, dependsOn: children }, i) => {
      if (!refs.has(ref)) problems.push({ path: `/dependencies/${i}/ref`, message: `${ref} names no component of this BOM` });
      (children ?? []).forEach((child, j) => { if (!refs.has(child)) problems.push({ path: `/dependencies/${i}/dependsOn/${j}`, message: `${child} names no component of this BOM` }); });
      const known = dependsOn!.get(ref);
      dependsOn!.set(ref, known ? [...known, ...(children ?? [])] : children ?? []);
    });
  }
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
  return {
    ok: true,
    graph: {
      format: 'CycloneDX', specVersion: bom.specVersion, tool: toolOf(bom),
      subject: subject ? { ref: subject['bom-ref'] ?? '/metadata/component', name: nameOf(subject) } : null,
      components, dependsOn,
    },
  };
}
