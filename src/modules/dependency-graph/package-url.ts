import { PackageURL } from 'packageurl-js';
import type { DependencyPackage } from './dependency-graph.types';

// A purl (https://github.com/package-url/purl-spec) read by the maintained parser, and the
// package alerts would name: interfaces.md Part 2 maps the purl type to the ecosystem.

const ECOSYSTEM_OF_TYPE: Readonly<Record<string, string>> = {
  npm: 'npm', pypi: 'pip', maven: 'maven', nuget: 'nuget', gem: 'rubygems', golang: 'go', cargo: 'rust', composer: 'composer', pub: 'pub',
};

/** A purl read once: the package it names, or the parser's reason it is refused. */
export function readPurl(value: string): { package: DependencyPackage } | { problem: string } {
  let purl: PackageURL;
  try {
    purl = PackageURL.fromString(value);
  } catch (error) {
    // The parser reports bad input with its PurlError; anything else is a slip inside it (2.0.1's
    // golang check throws a ReferenceError for a version of "v" and no semver): still a refusal.
    return { problem: error instanceof Error && error.constructor.name === 'PurlError' ? error.message : 'its components are not valid for its type' };
  }
  const namespace = purl.namespace ?? null;
  return {
    package: {
      purlType: purl.type,
      ecosystem: ECOSYSTEM_OF_TYPE[purl.type] ?? null,
      name: packageName(purl.type, namespace, purl.name),
      version: purl.version ?? null,
    },
  };
}

/** The parser's reason a purl is refused, or undefined when it is one. */
export function purlProblem(value: string): string | undefined {
  const read = readPurl(value);
  return 'problem' in read ? read.problem : undefined;
}

/** The package of a valid purl (check it with purlProblem first). */
export function packageOfPurl(value: string): DependencyPackage {
  const read = readPurl(value);
  if ('problem' in read) throw new Error(`not a package URL: ${read.problem}`);
  return read.package;
}

const TYPE_OF_ECOSYSTEM: ReadonlyMap<string, string> = new Map(Object.entries(ECOSYSTEM_OF_TYPE).map(([type, ecosystem]) => [ecosystem, type]));

/**
 * The purl of a package as alerts name it (the reverse of readPurl), or undefined for an
 * ecosystem no purl type is mapped from (GitHub Actions, say) or a name its type refuses (a
 * world file's maven package without a group).
 */
export function purlOfPackage(ecosystem: string, name: string, version: string | null): string | undefined {
  const type = TYPE_OF_ECOSYSTEM.get(ecosystem);
  if (type === undefined) return undefined;
  const split = type === 'maven' ? name.lastIndexOf(':') : name.lastIndexOf('/');
  const namespace = split < 0 ? null : name.slice(0, split);
  try {
    return new PackageURL(type, namespace, name.slice(split + 1), version, null, null).toString();
  } catch {
    return undefined;
  }
}

/** A repository's purl (`pkg:github/owner/name`; the type's names are case-insensitive, written lower-case). */
export function purlOfRepository(owner: string, name: string): string {
  return new PackageURL('github', owner, name, null, null, null).toString();
}

/** How each ecosystem writes a name with a namespace: maven `group:artifact`, the others `namespace/name` (npm's `@scope/name`). */
function packageName(type: string, namespace: string | null, name: string): string {
  if (namespace === null || namespace === '') return name;
  if (type === 'maven') return `${namespace}:${name}`;
  if (type === 'npm' && !namespace.startsWith('@')) return `@${namespace}/${name}`;
  return `${namespace}/${name}`;
}
