import type { Ecosystem } from './osv.types';

// OSV ecosystem names (ossf.github.io/osv-schema "Defined ecosystems") → the spec's ecosystems.
const OSV_ECOSYSTEMS: Readonly<Record<string, Ecosystem>> = {
  npm: 'npm',
  PyPI: 'pip',
  Maven: 'maven',
  NuGet: 'nuget',
  RubyGems: 'rubygems',
  Go: 'go',
  'crates.io': 'rust',
  Packagist: 'composer',
  Pub: 'pub',
};

/**
 * The spec's ecosystem of an OSV one, or null when orgsec does not know it. OSV may suffix an
 * ecosystem with a release (`Debian:11`); none of the nine has releases, so the name must match whole.
 */
export function ecosystemOf(osvEcosystem: string): Ecosystem | null {
  return Object.hasOwn(OSV_ECOSYSTEMS, osvEcosystem) ? (OSV_ECOSYSTEMS[osvEcosystem] ?? null) : null;
}
