import type { Ecosystem } from './version-scheme';

// How each ecosystem's registry identifies a package, so that an advisory's name and a
// dependency's name meet: pip by PEP 503's normalized name; NuGet and Packagist ignore case;
// Maven keeps "group:artifact" as OSV writes it. npm, RubyGems, Go, crates.io and pub names are
// compared as OSV gives them (npm's legacy mixed-case names such as "JSONStream" are distinct
// packages, Go module paths are case-sensitive).
export function normalizePackageName(ecosystem: Ecosystem, name: string): string {
  const trimmed = name.trim();
  switch (ecosystem) {
    case 'pip':
      return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
    case 'nuget':
    case 'composer':
      return trimmed.toLowerCase();
    default:
      return trimmed;
  }
}
