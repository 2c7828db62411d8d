import { MAX_RESOLVED_PER_MANIFEST } from '../dependency-graph/dependency-graph.schemas';
import type { DependencyRelationship, ResolvedDependency, SnapshotInput } from '../dependency-graph/dependency-graph.types';
import { readPurl } from '../dependency-graph/package-url';
import type { SbomComponent, SbomGraph, SbomProblem } from './sbom.types';

// An SBOM as a dependency snapshot of one manifest, as if its producer had submitted it
// through #30: each component with a package URL is a resolved package keyed by its purl (one
// listed twice, as nested trees list shared packages, is one package), its dependencies the
// purls the graph gives it. Relationship: direct when the subject depends on it (with no
// subject, when nothing does), indirect when only other components do, unknown when the
// document carries no graph or nothing reaches it.

export interface SnapshotFields {
  manifest: string;
  ref: string;
  sha: string;
  correlator: string;
  scanned: string;
}

export type SkipReason = 'no_package_url' | 'subject';

export interface SkippedComponent {
  name: string;
  /** Where the document holds it (a JSON pointer). */
  path: string;
  reason: SkipReason;
}

export interface SbomSummary {
  /** Components the document lists (the subject too, when it is among them). */
  total: number;
  /** Packages recorded in the snapshot (components with the same purl count once). */
  recorded: number;
  /** Recorded packages no advisory can match: a purl type of no advisory ecosystem, or no version. */
  unmatchable: number;
  skipped: SkippedComponent[];
}

const SPEC_HOMES = { CycloneDX: 'https://cyclonedx.org', SPDX: 'https://spdx.dev' } as const;

function relationshipsOf(graph: SbomGraph, recorded: ReadonlySet<string>): Map<string, DependencyRelationship> {
  const relationships = new Map<string, DependencyRelationship>();
  if (graph.dependsOn === null) return relationships;
  const dependedOn = new Set<string>();
  for (const [from, to] of graph.dependsOn) if (from !== graph.subject?.ref) for (const ref of to) dependedOn.add(ref);
  const direct = new Set(graph.subject ? graph.dependsOn.get(graph.subject.ref) ?? [] : [...recorded].filter((ref) => !dependedOn.has(ref)));
  for (const ref of recorded) relationships.set(ref, direct.has(ref) ? 'direct' : dependedOn.has(ref) ? 'indirect' : 'unknown');
  return relationships;
}

const RANK: Record<DependencyRelationship, number> = { direct: 2, indirect: 1, unknown: 0 };

export function snapshotOfSbom(graph: SbomGraph, fields: SnapshotFields): { ok: true; input: SnapshotInput; summary: SbomSummary } | { ok: false; problems: SbomProblem[] } {
  const problems: SbomProblem[] = [];
  const skipped: SkippedComponent[] = [];
  const withPurl: Array<{ component: SbomComponent; purl: string; read: ReturnType<typeof readPurl> }> = [];
  for (const component of graph.components) {
    if (component.ref === graph.subject?.ref) skipped.push({ name: component.name, path: component.path, reason: 'subject' });
    else if (component.purl === null) skipped.push({ name: component.name, path: component.path, reason: 'no_package_url' });
    else {
      const read = readPurl(component.purl);
      if ('problem' in read) problems.push({ path: component.purlPath ?? component.path, message: `is not a valid package URL: ${read.problem}` });
      else withPurl.push({ component, purl: component.purl, read });
    }
  }
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, 10) };
  const listPath = graph.format === 'CycloneDX' ? '/components' : '/packages';
  if (withPurl.length === 0) return { ok: false, problems: [{ path: listPath, message: 'names no component with a package URL: there is nothing to record' }] };

  const relationships = relationshipsOf(graph, new Set(withPurl.map((w) => w.component.ref)));
  const purlOfRef = new Map(withPurl.map((w) => [w.component.ref, w.purl]));
  const byPurl = new Map<string, ResolvedDependency>();
  for (const { component, purl, read } of withPurl) {
    if (!('package' in read)) continue;
    const children = new Set<string>();
    for (const ref of graph.dependsOn?.get(component.ref) ?? []) {
      const child = purlOfRef.get(ref);
      if (child !== undefined) children.add(child);
    }
    const relationship = relationships.get(component.ref) ?? 'unknown';
    const scope = component.development ? 'development' : 'runtime';
    const known = byPurl.get(purl);
    if (known) {
      known.dependencies = [...new Set([...known.dependencies, ...children])];
      if (scope === 'runtime') known.scope = 'runtime';
      if (RANK[relationship] > RANK[known.relationship]) known.relationship = relationship;
      continue;
    }
    byPurl.set(purl, { key: purl, packageUrl: purl, package: read.package, scope, relationship, dependencies: [...children], metadata: {} });
  }
  if (byPurl.size > MAX_RESOLVED_PER_MANIFEST) {
    return { ok: false, problems: [{ path: listPath, message: `names ${byPurl.size.toLocaleString('en-US')} packages; an upload records at most ${MAX_RESOLVED_PER_MANIFEST.toLocaleString('en-US')}` }] };
  }
  const resolved = [...byPurl.values()];
  const tool = graph.tool ?? { name: `${graph.format} upload`, version: graph.specVersion, url: null };
  const input: SnapshotInput = {
    version: 0,
    job: { id: `sbom-upload ${fields.scanned}`, correlator: fields.correlator, htmlUrl: null },
    sha: fields.sha,
    ref: fields.ref,
    detector: { name: tool.name, version: tool.version, url: tool.url ?? SPEC_HOMES[graph.format] },
    scanned: fields.scanned,
    metadata: { sbom_format: `${graph.format} ${graph.specVersion}` },
    manifests: [{ key: fields.manifest, name: fields.manifest, sourceLocation: null, metadata: {}, resolved }],
  };
  return {
    ok: true, input,
    summary: {
      total: graph.components.length, recorded: resolved.length, skipped,
      unmatchable: resolved.filter((r) => r.package.ecosystem === null || r.package.version === null).length,
    },
  };
}
