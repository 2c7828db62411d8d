import { randomUUID } from 'node:crypto';
import { Enums, Models, Serialize, Spec } from '@cyclonedx/cyclonedx-library';
import { random } from './generate-osv';

// An npm project's resolved dependencies (issue 39's benchmark) and the two documents that
// describe them: a CycloneDX 1.6 BOM in the shape @cyclonedx/cyclonedx-npm 6.0.1 writes after
// `npm ci` (as it wrote orgsec's own, 1.45 KB a component, indented: bom-refs of the npm tree, author
// and description, a declared licence, the purl, the repository, homepage and issue tracker
// each with its comment, npm's properties, a second version of a name nested under the package
// that needs it, development-only packages as scope "optional", the `dependencies` graph), built
// with the CycloneDX library, and the #30 submission of the same packages and graph.
// Deterministic: the same project every run.

export interface NpmPackage {
  name: string;
  version: string;
  /** Reached only through development dependencies. */
  isDev: boolean;
  /** Indexes of the packages it depends on. */
  dependsOn: number[];
  /** The package in whose node_modules npm installed it (a second version of a name), else null: at the top. */
  nestedUnder: number | null;
}

export interface NpmProject {
  name: string;
  version: string;
  /** Indexes of the packages the project's package.json names. */
  direct: number[];
  packages: NpmPackage[];
}

const DIRECT = 60;
/** Of the direct dependencies, every DEV_EVERY-th is a devDependency. */
const DEV_EVERY = 4;
/** Every NEST_EVERY-th package is a second version of its neighbour's name, nested. */
const NEST_EVERY = 40;
const CYCLONEDX_NPM = { group: '@cyclonedx', name: 'cyclonedx-npm', version: '6.0.1' };

/**
 * `count` packages; `fixed` gives some indexes a name and version of their own (the bench puts
 * packages advisories affect there). Each package past the direct ones is needed by an earlier
 * one, and needs 0–3 later ones besides: a graph of about 2.5 edges a package, as npm trees have.
 */
export function generateNpmProject(count: number, fixed: ReadonlyMap<number, { name: string; version: string }>): NpmProject {
  const rand = random(39);
  const int = (n: number) => Math.floor(rand() * n);
  const packages: NpmPackage[] = Array.from({ length: count }, (_, i) => ({
    name: fixed.get(i)?.name ?? (i % 3 === 0 ? `@bench-scope-${i % 29}/pkg-${i}` : `bench-pkg-${i}`),
    version: fixed.get(i)?.version ?? `${int(12)}.${int(30)}.${int(20)}`,
    isDev: false, dependsOn: [], nestedUnder: null,
  }));
  const parents: number[][] = packages.map(() => []);
  const needs = (from: number, to: number) => {
    if (!packages[from]!.dependsOn.includes(to)) { packages[from]!.dependsOn.push(to); parents[to]!.push(from); }
  };
  for (let i = DIRECT; i < count; i++) {
    const parent = int(i);
    needs(parent, i);
    const previous = packages[i - 1]!;
    if (i % NEST_EVERY === 0 && !fixed.has(i) && !fixed.has(i - 1)) {
      packages[i]!.name = previous.name;
      packages[i]!.version = `${Number(previous.version.split('.')[0]) + 1}.0.${int(9)}`;
      packages[i]!.nestedUnder = parent;
    }
  }
  for (let i = 0; i < count - 1; i++) {
    for (let extra = int(4); extra > 0; extra--) needs(i, i + 1 + int(count - i - 1));
  }
  // Parents come before their children: development-only is settled in one pass.
  packages.forEach((p, i) => {
    const isDevRoot = i < DIRECT ? i % DEV_EVERY === DEV_EVERY - 1 : true;
    p.isDev = isDevRoot && parents[i]!.every((parent) => packages[parent]!.isDev);
  });
  return { name: 'bench-app', version: '1.0.0', direct: Array.from({ length: DIRECT }, (_, i) => i), packages };
}

export const purlOf = (p: { name: string; version: string }) => `pkg:npm/${p.name.replace(/^@/, '%40')}@${p.version}`;

/** The project with some packages at other versions (a later scan's). */
export function withVersions(project: NpmProject, versions: ReadonlyMap<number, string>): NpmProject {
  return { ...project, packages: project.packages.map((p, i) => (versions.has(i) ? { ...p, version: versions.get(i)! } : p)) };
}

/** The project's BOM as `cyclonedx-npm` writes it (JSON, CycloneDX 1.6). */
export function cycloneDxBom(project: NpmProject, timestamp: Date): string {
  const root = `${project.name}@${project.version}`;
  const subject = new Models.Component(Enums.ComponentType.Application, project.name, {
    version: project.version, bomRef: root, purl: purlOf(project), licenses: new Models.LicenseRepository([new Models.SpdxLicense('MIT')]),
  });
  const bom = new Models.Bom({ serialNumber: `urn:uuid:${randomUUID()}` });
  bom.metadata.timestamp = timestamp;
  bom.metadata.component = subject;
  bom.metadata.tools.components.add(new Models.Component(Enums.ComponentType.Application, 'npm', { version: '10.9.2' }));
  bom.metadata.tools.components.add(new Models.Component(Enums.ComponentType.Application, CYCLONEDX_NPM.name, { group: CYCLONEDX_NPM.group, version: CYCLONEDX_NPM.version }));
  const refs: string[] = [];
  const paths: string[] = [];
  const components = project.packages.map((p, i) => {
    const parent = p.nestedUnder;
    refs[i] = parent === null ? `${root}|${p.name}@${p.version}` : `${refs[parent]}|${p.name}@${p.version}`;
    paths[i] = parent === null ? `node_modules/${p.name}` : `${paths[parent]}/node_modules/${p.name}`;
    const [group, name] = p.name.startsWith('@') ? p.name.split('/') as [string, string] : [undefined, p.name];
    const home = `https://github.com/bench-${i % 97}/${name}`;
    const reference = (url: string, type: Enums.ExternalReferenceType, property: string) =>
      new Models.ExternalReference(url, type, { comment: `as detected from PackageJson property "${property}"` });
    return new Models.Component(Enums.ComponentType.Library, name, {
      version: p.version, bomRef: refs[i], purl: purlOf(p), ...(group ? { group } : {}), ...(p.isDev ? { scope: Enums.ComponentScope.Optional } : {}),
      ...(i % 4 === 0 ? {} : { author: `Maintainer ${i % 211}` }),
      ...(i % 10 === 0 ? {} : { description: `Utilities for ${name}: parsing, formatting and validation of its inputs` }),
      licenses: new Models.LicenseRepository([new Models.SpdxLicense(i % 7 === 0 ? 'ISC' : 'MIT', { acknowledgement: Enums.LicenseAcknowledgement.Declared })]),
      externalReferences: new Models.ExternalReferenceRepository([
        reference(`git+${home}.git`, Enums.ExternalReferenceType.VCS, 'repository.url'),
        reference(`${home}#readme`, Enums.ExternalReferenceType.Website, 'homepage'),
        reference(`${home}/issues`, Enums.ExternalReferenceType.IssueTracker, 'bugs.url'),
      ]),
      properties: new Models.PropertyRepository([
        ...(i % 2 === 0 ? [new Models.Property('cdx:npm:package:constraint:engine:node', '>= 18')] : []),
        new Models.Property('cdx:npm:package:path', paths[i]!),
        ...(p.isDev ? [new Models.Property('cdx:npm:package:development', 'true')] : []),
      ]),
    });
  });
  project.packages.forEach((p, i) => {
    const parent = p.nestedUnder;
    (parent === null ? bom.components : components[parent]!.components).add(components[i]!);
    for (const child of p.dependsOn) components[i]!.dependencies.add(components[child]!.bomRef);
  });
  for (const i of project.direct) subject.dependencies.add(components[i]!.bomRef);
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  // Indented as the generator writes its file.
  return serializer.serialize(bom, { sortLists: false, space: 2 });
}

/** The same packages and graph as a #30 submission of one manifest, each keyed by its purl as an upload records it. */
export function snapshotSubmission(project: NpmProject, scan: { sha: string; scanned: Date; jobId: string; correlator: string; manifest: string }): string {
  const direct = new Set(project.direct);
  const resolved: Record<string, unknown> = {};
  project.packages.forEach((p, i) => {
    resolved[purlOf(p)] = {
      package_url: purlOf(p), relationship: direct.has(i) ? 'direct' : 'indirect', scope: p.isDev ? 'development' : 'runtime',
      dependencies: p.dependsOn.map((child) => purlOf(project.packages[child]!)),
    };
  });
  return JSON.stringify({
    version: 0, sha: scan.sha, ref: 'refs/heads/main', scanned: scan.scanned.toISOString(), job: { id: scan.jobId, correlator: scan.correlator },
    detector: { name: `${CYCLONEDX_NPM.group}/${CYCLONEDX_NPM.name}`, version: CYCLONEDX_NPM.version, url: 'https://github.com/CycloneDX/cyclonedx-node-npm' },
    manifests: { [scan.manifest]: { name: scan.manifest, file: { source_location: scan.manifest }, resolved } },
  });
}
